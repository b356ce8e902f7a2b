/**
 * What a test leaves for the reporters in its task meta (vitest carries it to the main process):
 * its capability, clause, findings, and a toolkit error if one stopped it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { RootCause } from './defect.ts';
import type { Finding } from './finding.ts';
import type { TimingDigest } from './timing.ts';

/** Findings a test saw again after an earlier test reported them: counted on their root, not failed again. */
export interface RepeatRecord {
  check: string;
  severity: Finding['severity'];
  clause: string;
  message: string;
  /** The test whose finding this repeats. */
  of: string;
  /** How often the test saw it. */
  count: number;
}

/** What the operator was asked to do in one step of a manual session, and what they did. */
export interface OperatorEntry {
  /** The outcome the step asked for (`approve`, `decline`...), or `redo` for a set-aside attempt. */
  step: string;
  instruction: string;
  /** done: the step ended by itself; kept: it ended otherwise than expected and the operator kept it. */
  verdict: 'done' | 'kept' | 'skip' | 'redo' | 'abort';
  expected?: string;
  final?: string;
  /** The scenario's attempt (a redo starts the next). */
  attempt: number;
  at: string;
  /** Findings of an attempt the operator redid: recorded here, not filed. */
  setAside?: string[];
}

/** The key of a scenario's declared operator steps in vitest's test meta (read when a session is planned). */
export const OPERATOR_META_KEY = 'pcc_operator';

export interface TestMeta {
  capability: string;
  clause: string;
  findings: Finding[];
  toolkitError?: { code: string; message: string; hint?: string };
  skipReason?: string;
  /** The service defect that kept the test from going on (it is skipped, naming it). */
  blockedBy?: RootCause;
  /** Defects the test saw that an earlier test reported already. */
  repeats?: RepeatRecord[];
  /** Why the test did not finish: the run's or its own time budget ran out. */
  notFinished?: 'run budget exceeded' | 'time budget exceeded' | 'stopped by the operator';
  /** Parameters worth showing in reports (amount, outcome, terminal mode). */
  parameters?: Record<string, string>;
  /**
   * The exchanges of the test, redacted, for the reports' steps: all of them up to a limit, beyond it
   * the first and last ones and every one a finding is about (a property test makes thousands).
   */
  exchanges?: unknown[];
  /** How many exchanges the test made (also those left out of `exchanges`). */
  exchangeCount?: number;
  /** Deliveries seen by the receivers during the test, redacted. */
  deliveries?: unknown[];
  /** Manual mode: what the operator was asked and did, step by step. */
  operator?: OperatorEntry[];
  /** The test passed earlier in the session being resumed and was not run again. */
  carried?: boolean;
  /**
   * What the test could not observe, each with why (`webhooks: the vault pairing's webhook_url is not
   * this run's receiver`): those parts are "not checked", never "passed".
   */
  notChecked?: string[];
  /** Transactions and operations that became final by polling where the test could see webhook deliveries. */
  webhookFinals?: number;
  /** How the harness fared during the test: see {@link HarnessMeta}. */
  harness?: HarnessMeta;
  /** What the test exercised, every exchange and delivery counted (also those left out of `exchanges`). */
  coverage?: CoverageDigest;
  /** How long the service took in the test (answers, convergence, webhooks, steps): see {@link TimingDigest}. */
  timing?: TimingDigest;
}

/** The worker's load when the test ended, and what its stalls cost the test. */
export interface HarnessMeta {
  /** Vitest's number of the worker (one terminal each). */
  worker: number;
  /** The worker's longest event-loop delay so far, ms. */
  maxEventLoopDelayMs: number;
  /** The worker's CPU time so far, seconds. */
  cpuSeconds: number;
  /** Waits measured again because the harness stood still through them. */
  remeasured?: { what: string; lostMs: number; waitMs: number }[];
  /** What could not be judged because the harness stood still through it. */
  overloaded?: string[];
}

/** The key of TestMeta in vitest's task meta. */
export const META_KEY = 'payconnect';

/**
 * What one test exercised, for the run's coverage: keys only (no bodies, no ids, no secrets), every
 * list sorted and without repeats, so the coverage of a run is the same whichever worker or shard ran
 * the test.
 */
export interface CoverageDigest {
  /** Answers by operation: `getConfig 200`; `getConfig -` when no answer came. */
  calls: string[];
  /** Enum values seen in response and webhook bodies, by schema and field: `TransactionRecord.status=SUCCESS` (`tags[]` for an array's items). */
  enums: string[];
  /** Statuses seen one after the other for one transaction or operation, by channel: `transaction INITIATED>IN_PROGRESS poll`. */
  transitions: string[];
  /** Webhook deliveries by event type and signature state: `transaction.success valid`. */
  events: string[];
  /** Checks run, by id: their clause and how often each outcome came (`disabled`: turned off by the run). */
  checks: Record<string, CheckTally>;
  /**
   * Request classes sent: `valid generateTransaction`, `invalid generateTransaction type /amount`,
   * `boundary generateTransaction amount minimum`, `probe getConfig bearer none`.
   */
  inputs: string[];
}

/** How often one check came to each outcome in a test. */
export interface CheckTally {
  clause: string;
  pass?: number;
  fail?: number;
  skip?: number;
  disabled?: number;
}

/** An empty digest. */
export const emptyCoverageDigest = (): CoverageDigest => ({ calls: [], enums: [], transitions: [], events: [], checks: {}, inputs: [] });

/** Two digests as one (sorted, no repeats, tallies added): the digest of a test whose parts were kept apart. */
export function mergeCoverageDigests(a: CoverageDigest, b: CoverageDigest): CoverageDigest {
  const join = (x: readonly string[], y: readonly string[]) => [...new Set([...x, ...y])].sort();
  const checks: Record<string, CheckTally> = {};
  for (const id of Object.keys({ ...a.checks, ...b.checks }).sort()) {
    const [x, y] = [a.checks[id], b.checks[id]];
    const tally: CheckTally = { clause: x?.clause ?? y!.clause };
    for (const k of ['pass', 'fail', 'skip', 'disabled'] as const) {
      const n = (x?.[k] ?? 0) + (y?.[k] ?? 0);
      if (n > 0) tally[k] = n;
    }
    checks[id] = tally;
  }
  return {
    calls: join(a.calls, b.calls),
    enums: join(a.enums, b.enums),
    transitions: join(a.transitions, b.transitions),
    events: join(a.events, b.events),
    checks,
    inputs: join(a.inputs, b.inputs),
  };
}

/** A field of a response or webhook schema that holds an enum: `TransactionRecord` `tags[]`, its values. */
export interface EnumField {
  schema: string;
  path: string;
  values: string[];
}

type SchemaNode = {
  $ref?: string;
  enum?: unknown[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  allOf?: SchemaNode[];
};

/**
 * The enum fields of each component schema (`schemas`: the contract's JSON Schemas by name, refs by
 * file name such as `TransactionStatus.json`), nested objects and arrays followed, sorted.
 */
export function enumFieldsOf(schemas: Readonly<Record<string, unknown>>): EnumField[] {
  const out: EnumField[] = [];
  const walk = (top: string, node: SchemaNode | undefined, path: string, seen: ReadonlySet<string>): void => {
    if (!node || typeof node !== 'object') return;
    if (node.$ref) {
      const name = node.$ref.replace(/\.json$/, '');
      if (!seen.has(name)) walk(top, schemas[name] as SchemaNode | undefined, path, new Set([...seen, name]));
      return;
    }
    if (Array.isArray(node.enum) && path !== '') {
      const values = node.enum.filter((v): v is string => typeof v === 'string');
      if (values.length > 0) out.push({ schema: top, path, values: [...values].sort() });
    }
    for (const [k, v] of Object.entries(node.properties ?? {})) walk(top, v, path === '' ? k : `${path}.${k}`, seen);
    if (node.items) walk(top, node.items, `${path}[]`, seen);
    for (const alt of [...(node.oneOf ?? []), ...(node.anyOf ?? []), ...(node.allOf ?? [])]) walk(top, alt, path, seen);
  };
  for (const name of Object.keys(schemas).sort()) walk(name, schemas[name] as SchemaNode, '', new Set([name]));
  const key = (f: EnumField) => `${f.schema}.${f.path}`;
  return out.filter((f, i) => out.findIndex((g) => key(g) === key(f)) === i).sort((x, y) => key(x).localeCompare(key(y)));
}

/** The enum values a body of schema `schema` holds in its enum fields, as digest keys (`Schema.path=VALUE`), sorted. */
export function enumSightings(schema: string, body: unknown, fields: readonly EnumField[]): string[] {
  const seen = new Set<string>();
  for (const f of fields) {
    if (f.schema !== schema) continue;
    for (const v of valuesAt(body, f.path.split('.')))
      if (typeof v === 'string' && f.values.includes(v)) seen.add(`${schema}.${f.path}=${v}`);
  }
  return [...seen].sort();
}

function valuesAt(node: unknown, steps: readonly string[]): unknown[] {
  if (steps.length === 0) return [node];
  const [step, ...rest] = steps as [string, ...string[]];
  const array = step.endsWith('[]');
  const key = array ? step.slice(0, -2) : step;
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return [];
  const v = (node as Record<string, unknown>)[key];
  if (array) return Array.isArray(v) ? v.flatMap((item) => valuesAt(item, rest)) : [];
  return valuesAt(v, rest);
}

/** The contract's JSON Schemas (one file per component; the same depth from src/ and dist/). */
const SCHEMAS_DIR = new URL('../../contracts/schemas/', import.meta.url);
let contractFields: EnumField[] | undefined;

/** The enum fields of the contract's component schemas (read once). */
export function contractEnumFields(): readonly EnumField[] {
  if (!contractFields) {
    const schemas: Record<string, unknown> = {};
    for (const file of readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith('.json')))
      schemas[file.slice(0, -5)] = JSON.parse(readFileSync(new URL(file, SCHEMAS_DIR), 'utf8'));
    contractFields = enumFieldsOf(schemas);
  }
  return contractFields;
}
