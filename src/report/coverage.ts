/**
 * The coverage of a run (coverage.json): what the run exercised of the contract and the lifecycle, in
 * seven sections: operations called, statuses answered, enum values seen, transitions observed,
 * webhook event types delivered, clauses judged, request classes sent. Each item not covered says why
 * where that is knowable: not reachable on this target, skipped by a setting, or not exercised.
 *
 * Built from the tests' records only (each test's coverage digest, counted in the worker over every
 * exchange and delivery), by a merge that is commutative and associative: the coverage of shards
 * merged is the coverage of the whole run, and every list is sorted.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CheckTally,
  type CoverageDigest,
  type ErrorCode,
  type Exchange,
  SCHEMA_CLAUSES,
  ToolkitError,
  contractEnumFields,
  editDistance,
  emptyCoverageDigest,
  enumSightings,
  mergeCoverageDigests,
} from '../core/index.ts';
import { operations } from '../generated/contract.ts';
import { DEFAULT_OPERATION_GRAPH, DEFAULT_TRANSACTION_GRAPH, PROFILES, type TransitionGraph, isReachable } from '../profile/index.ts';
import { headingAnchor } from './allure-messages.ts';
import { SPEC_SOURCE_DIR } from './clause-text.ts';
import type { DeliveryView, RunRecord, TestRecord } from './records.ts';
import type { RunInfo } from './run-info.ts';

/** The file name in the reports folder. */
export const COVERAGE_FILE = 'coverage.json';
const FORMAT = 'payconnect-conformance/coverage@1';

/** The sections of coverage.json. */
export const COVERAGE_KINDS = ['operations', 'statuses', 'enums', 'transitions', 'events', 'clauses', 'inputs'] as const;
export type CoverageKind = (typeof COVERAGE_KINDS)[number];
/** The kinds `--require-coverage` may require (inputs has no fixed list to require). */
export const REQUIRABLE_COVERAGE_KINDS = [
  'operations',
  'statuses',
  'enums',
  'transitions',
  'events',
  'clauses',
] as const satisfies readonly CoverageKind[];

/** Why an item was not covered. */
export const UNCOVERED = {
  unreachable: 'not reachable on this target',
  setting: 'skipped by a setting',
  notExercised: 'not exercised',
} as const;

/** Covered and total items of one kind. */
export interface CoverageTally {
  covered: number;
  total: number;
  /** covered / total in percent, one decimal; 100 when there is nothing to cover. */
  percent: number;
  /** Items not covered and excluded from the gate (absent: none). */
  excluded?: number;
}

interface Judged {
  covered: boolean;
  /** Why not covered (absent when covered): starts with one of {@link UNCOVERED}. */
  reason?: string;
  /**
   * Present when not covered and excluded from the gate: by the run's `coverage.exclude` (`by` the
   * item as written there) or by the contract (`by: 'contract'`: another documented success was answered).
   */
  excluded?: { by: string; reason: string };
}

/** An item the gate does not require, with why (`coverage.exclude` of the config): `{ item: 'getToken 500', reason: '…' }`. */
export interface CoverageExclusion {
  /** An item as the reports name it (`getToken 500`, `PrintSlip.tags[]=overpaid`, `operation INITIATED -> FAILED`, `spec#versioning`); `*` matches any text. */
  item: string;
  reason: string;
}

export interface OperationCoverage extends Judged {
  operationId: string;
  method: string;
  path: string;
  /** The tests that called it. */
  tests: string[];
}

export interface StatusCoverage extends Judged {
  operationId: string;
  status: string;
  /** A status the contract documents for the operation (an undocumented one is listed only when seen). */
  documented: boolean;
  tests: string[];
}

export interface EnumCoverage extends Judged {
  /** The response or webhook schema holding the field. */
  schema: string;
  field: string;
  value: string;
  /** How many tests saw it. */
  tests: number;
}

export interface TransitionCoverage extends Judged {
  graph: 'transaction' | 'operation';
  from: string;
  to: string;
  /**
   * How many tests saw it by polling (two polls in a row, counted only where no other path joins the
   * two statuses: a poll may miss a state), and by webhook (every status change is posted).
   */
  polling: number;
  webhook: number;
  by: 'polling' | 'webhook' | 'both' | 'none';
}

export interface EventCoverage extends Judged {
  event: string;
  /** The webhook schema whose `event` lists it ('' for an event type the contract does not list). */
  schema: string;
  /** How many tests got deliveries of it, by signature state (valid, invalid, missing, unchecked). */
  deliveries: Record<string, number>;
  /** Covered means delivered with a valid signature. */
  validlySigned: boolean;
}

export interface ClauseCoverage extends Judged {
  clause: string;
  /** A heading of the spec documents (else a clause only a check or test names). */
  documented: boolean;
  /** The checks that ran for it, with how often each outcome came. */
  checks: Record<string, Omit<CheckTally, 'clause'>>;
  /** Findings filed under it, by check. */
  findings: Record<string, number>;
  /** The tests that ran for it: declared for it, or calling the endpoint it describes. */
  tests: string[];
}

export interface InputCoverage extends Judged {
  /** `valid op`, `invalid op` (any invalid body) for the classes expected; the classes sent as they were. */
  class: string;
  /** One of the classes every run is expected to send (counted in the summary); `invalid op` is covered by any `invalid op …` sent. */
  expected: boolean;
  /** How many tests sent exactly this class. */
  tests: number;
}

/** What the reasons are judged from: settings of the run and what its tests could not observe. */
export interface CoverageContext {
  target: string;
  profile: string;
  /** The suites run, when the run was restricted to some (empty: all). */
  suitesSelected: string[];
  checksDisabled: string[];
  /** What tests could not observe (their `notChecked`), once each. */
  notChecked: string[];
  tests: number;
  /** The run's `coverage.exclude`, sorted by item (absent: none). */
  exclude?: CoverageExclusion[];
}

export interface Coverage {
  format: typeof FORMAT;
  context: CoverageContext;
  /**
   * `statuses2xx`: the documented success of each operation, seen or not. Where the contract documents
   * alternatives (unpair: 200 or 204), the one the service answers covers the operation's success; the
   * other stays an uncovered status in `statuses`, with that reason.
   */
  summary: Record<CoverageKind, CoverageTally> & { statuses2xx: CoverageTally };
  operations: OperationCoverage[];
  statuses: StatusCoverage[];
  enums: EnumCoverage[];
  transitions: TransitionCoverage[];
  events: EventCoverage[];
  clauses: ClauseCoverage[];
  inputs: InputCoverage[];
}

/** Options of {@link buildCoverage}: the run's settings (RunInfo has them). */
export type CoverageInfo = Pick<RunInfo, 'suitesSelected' | 'checksDisabled' | 'profile' | 'coverageExclude'> & {
  target: { kind: string };
};

const sortedUnion = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])].sort();
const byName = <T>(list: T[], key: (x: T) => string) => list.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
const add = (a: Record<string, number>, b: Record<string, number>) => {
  const out: Record<string, number> = {};
  for (const k of Object.keys({ ...a, ...b }).sort()) out[k] = (a[k] ?? 0) + (b[k] ?? 0);
  return out;
};

/**
 * The clauses of the spec documents: one per section heading (`spec#states-and-transitions`), sorted.
 * A document's title (its `#` heading) names the document, not a clause of it.
 */
export function specClauses(sourceDir = SPEC_SOURCE_DIR): string[] {
  const out: string[] = [];
  for (const [source, file] of [
    ['spec', 'pay-connect-spec.md'],
    ['profile', 'public-profile.md'],
    ['sandbox', 'sandbox.md'],
  ] as const) {
    let text = '';
    try {
      text = readFileSync(join(sourceDir, file), 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(/^#{2,6}\s+(.*)$/gm)) out.push(`${source}#${headingAnchor(m[1]!.trim())}`);
  }
  return [...new Set(out)].sort();
}

/**
 * The digest of a test: the one its worker counted, else what its record still shows (the exchanges
 * kept, the deliveries, the findings): a record made without a worker (a whole-run verdict) has none.
 */
export function digestOf(t: TestRecord): CoverageDigest {
  const fromFindings = emptyCoverageDigest();
  for (const f of t.findings) fromFindings.checks[f.check] = { clause: f.clause, fail: (fromFindings.checks[f.check]?.fail ?? 0) + 1 };
  if (t.coverage) return t.coverage;
  const calls = new Set<string>();
  const enums = new Set<string>();
  for (const ex of t.exchanges as Partial<Exchange>[]) {
    const op = operations.find((o) => o.operationId === ex.operationId);
    if (!op) continue;
    calls.add(`${op.operationId} ${ex.response?.status ?? '-'}`);
    const schema = ex.response ? op.responses[String(ex.response.status)]?.schema : undefined;
    if (schema) for (const e of enumSightings(schema, ex.response?.body, contractEnumFields())) enums.add(e);
  }
  const events = new Set(
    ((t.deliveries as DeliveryView[] | undefined) ?? []).map(
      (d) => `${d.event ?? '(no event)'} ${String((d as { signature?: unknown }).signature ?? 'unchecked')}`,
    ),
  );
  return mergeCoverageDigests(fromFindings, {
    ...emptyCoverageDigest(),
    calls: [...calls].sort(),
    enums: [...enums].sort(),
    events: [...events].sort(),
  });
}

/** The clause of the spec section that describes an operation's endpoint. */
const endpointClause = (o: { method: string; path: string }) => `spec#${headingAnchor(`${o.method} ${o.path}`)}`;

const graphs = (profile: string): Record<'transaction' | 'operation', TransitionGraph> => {
  const p = PROFILES[profile as keyof typeof PROFILES];
  return { transaction: p?.transactionGraph ?? DEFAULT_TRANSACTION_GRAPH, operation: p?.operationGraph ?? DEFAULT_OPERATION_GRAPH };
};

/** The items of every section with nothing seen yet: what the contract, the profile and the documents list. */
function skeleton(context: CoverageContext, clauses: readonly string[]): Coverage {
  const unjudged = { covered: false };
  const fields = contractEnumFields();
  const responseSchemas = new Set(
    operations.flatMap((o) => Object.values(o.responses).map((r) => r.schema)).filter((s): s is string => !!s),
  );
  const eventFields = fields.filter((f) => f.path === 'event' && !responseSchemas.has(f.schema));
  const webhookSchemas = new Set(eventFields.map((f) => f.schema));
  const g = graphs(context.profile);
  return {
    format: FORMAT,
    context,
    summary: {} as Coverage['summary'],
    operations: operations.map((o) => ({ operationId: o.operationId, method: o.method, path: o.path, tests: [], ...unjudged })),
    statuses: operations.flatMap((o) =>
      Object.keys(o.responses).map((status) => ({ operationId: o.operationId, status, documented: true, tests: [], ...unjudged })),
    ),
    enums: fields
      .filter((f) => responseSchemas.has(f.schema) || webhookSchemas.has(f.schema))
      .flatMap((f) => f.values.map((value) => ({ schema: f.schema, field: f.path, value, tests: 0, ...unjudged }))),
    transitions: (['transaction', 'operation'] as const).flatMap((graph) =>
      Object.entries(g[graph]).flatMap(([from, tos]) =>
        tos.map((to) => ({ graph, from, to, polling: 0, webhook: 0, by: 'none' as const, ...unjudged })),
      ),
    ),
    events: eventFields.flatMap((f) =>
      f.values.map((event) => ({ event, schema: f.schema, deliveries: {}, validlySigned: false, ...unjudged })),
    ),
    clauses: clauses.map((clause) => ({ clause, documented: true, checks: {}, findings: {}, tests: [], ...unjudged })),
    inputs: operations
      .flatMap((o) => [`valid ${o.operationId}`, ...(o.requestSchema ? [`invalid ${o.operationId}`] : [])])
      .map((c) => ({ class: c, expected: true, tests: 0, ...unjudged })),
  };
}

/** What one test adds to the sections: items of the same shapes, with only the test's facts. */
function factsOf(t: TestRecord, context: CoverageContext, documentedClauses: ReadonlySet<string>): Coverage {
  const d = digestOf(t);
  const calls = d.calls.map((k) => k.split(' ') as [string, string]);
  const called = new Set(calls.map(([op]) => op));
  const documented = (op: string, status: string) => operations.some((o) => o.operationId === op && status in o.responses);
  const transitions = new Map<string, TransitionCoverage>();
  const g = graphs(context.profile);
  for (const k of d.transitions) {
    const [graph, edge = '', channel] = k.split(' ') as ['transaction' | 'operation', string, string];
    const [from = '', to = ''] = edge.split('>');
    // Statuses seen one after the other that no edge joins: states in between went unseen. Polls
    // may miss a state, so a polled pair shows the edge only when no other path joins the two.
    if (!g[graph]?.[from]?.includes(to)) continue;
    if (channel === 'poll' && g[graph]![from]!.some((via) => via !== to && isReachable(g[graph]!, via, to))) continue;
    const item = transitions.get(`${graph} ${edge}`) ?? { graph, from, to, polling: 0, webhook: 0, by: 'none', covered: false };
    if (channel === 'poll') item.polling = 1;
    else item.webhook = 1;
    transitions.set(`${graph} ${edge}`, item);
  }
  const events = new Map<string, Record<string, number>>();
  for (const k of d.events) {
    const cut = k.lastIndexOf(' ');
    events.set(k.slice(0, cut), { ...events.get(k.slice(0, cut)), [k.slice(cut + 1)]: 1 });
  }
  const clauses = new Map<string, ClauseCoverage>();
  const clauseItem = (clause: string) =>
    clauses.get(clause) ??
    clauses.set(clause, { clause, documented: false, checks: {}, findings: {}, tests: [], covered: false }).get(clause)!;
  for (const [id, { clause, ...tally }] of Object.entries(d.checks)) clauseItem(clause).checks[id] = tally;
  for (const f of t.findings) clauseItem(f.clause).findings[f.check] = (clauseItem(f.clause).findings[f.check] ?? 0) + 1;
  if (t.clause && t.state !== 'skipped') clauseItem(t.clause).tests = [t.name];
  // A call exercises the section of the spec that describes its endpoint (`### POST /v1/auth/token/`).
  for (const o of operations.filter((x) => called.has(x.operationId))) {
    const clause = endpointClause(o);
    if (documentedClauses.has(clause)) clauseItem(clause).tests = [t.name];
  }
  // An answer judged against its schema (response.schema ran) exercises the section that defines the
  // schema (`### Token result` for getToken's 200): that is the clause its body's errors are filed under.
  const schemaJudged = Object.entries(d.checks).some(([id, c]) => id === 'response.schema' && (c.pass ?? 0) + (c.fail ?? 0) > 0);
  for (const [op, status] of schemaJudged ? calls : []) {
    const schema = operations.find((o) => o.operationId === op)?.responses[status]?.schema;
    const clause = schema ? SCHEMA_CLAUSES[schema] : undefined;
    if (clause && documentedClauses.has(clause)) clauseItem(clause).tests = [t.name];
  }
  return {
    format: FORMAT,
    context: { ...context, notChecked: [...new Set(t.notChecked ?? [])].sort(), tests: 1 },
    summary: {} as Coverage['summary'],
    operations: operations
      .filter((o) => called.has(o.operationId))
      .map((o) => ({ operationId: o.operationId, method: o.method, path: o.path, tests: [t.name], covered: false })),
    statuses: calls
      .filter(([, status]) => status !== '-')
      .map(([operationId, status]) => ({
        operationId,
        status,
        documented: documented(operationId, status),
        tests: [t.name],
        covered: false,
      })),
    enums: d.enums.map((k) => {
      const [, schema = '', field = '', value = ''] = /^([^.]+)\.([^=]+)=(.*)$/.exec(k) ?? [];
      return { schema, field, value, tests: 1, covered: false };
    }),
    transitions: [...transitions.values()],
    events: [...events].map(([event, deliveries]) => ({ event, schema: '', deliveries, validlySigned: false, covered: false })),
    clauses: [...clauses.values()],
    inputs: d.inputs.map((k) => ({ class: k, expected: false, tests: 1, covered: false })),
  };
}

/** Merges the items of each section by key; facts are added, so the order of the parts never matters. */
function mergeFacts(a: Coverage, b: Coverage): Coverage {
  const section = <T>(x: T[], y: T[], key: (i: T) => string, join: (i: T, j: T) => T): T[] => {
    const out = new Map<string, T>();
    for (const i of [...x, ...y]) {
      const k = key(i);
      const had = out.get(k);
      out.set(k, had ? join(had, i) : i);
    }
    return byName([...out.values()], key);
  };
  const tally = (x: Omit<CheckTally, 'clause'>, y: Omit<CheckTally, 'clause'>) =>
    add(x as Record<string, number>, y as Record<string, number>);
  const context: CoverageContext = {
    ...a.context,
    notChecked: sortedUnion(a.context.notChecked, b.context.notChecked),
    tests: a.context.tests + b.context.tests,
  };
  return {
    format: FORMAT,
    context,
    summary: a.summary,
    operations: section(
      a.operations,
      b.operations,
      (o) => o.operationId,
      (o, p) => ({ ...o, tests: sortedUnion(o.tests, p.tests) }),
    ),
    statuses: section(
      a.statuses,
      b.statuses,
      (s) => `${s.operationId} ${s.status.padStart(3, '0')}`,
      (s, r) => ({ ...s, documented: s.documented || r.documented, tests: sortedUnion(s.tests, r.tests) }),
    ),
    enums: section(
      a.enums,
      b.enums,
      (e) => `${e.schema}.${e.field}=${e.value}`,
      (e, f) => ({ ...e, tests: e.tests + f.tests }),
    ),
    transitions: section(
      a.transitions,
      b.transitions,
      (t) => `${t.graph} ${t.from}>${t.to}`,
      (t, u) => ({ ...t, polling: t.polling + u.polling, webhook: t.webhook + u.webhook }),
    ),
    events: section(
      a.events,
      b.events,
      (e) => e.event,
      (e, f) => ({ ...e, schema: e.schema || f.schema, deliveries: add(e.deliveries, f.deliveries) }),
    ),
    clauses: section(
      a.clauses,
      b.clauses,
      (c) => c.clause,
      (c, d) => {
        const checks: ClauseCoverage['checks'] = {};
        for (const id of Object.keys({ ...c.checks, ...d.checks }).sort()) checks[id] = tally(c.checks[id] ?? {}, d.checks[id] ?? {});
        return {
          ...c,
          documented: c.documented || d.documented,
          checks,
          findings: add(c.findings, d.findings),
          tests: sortedUnion(c.tests, d.tests),
        };
      },
    ),
    inputs: section(
      a.inputs,
      b.inputs,
      (i) => i.class,
      (i, j) => ({ ...i, expected: i.expected || j.expected, tests: i.tests + j.tests }),
    ),
  };
}

/** Why an item of `kind` was not covered, from the run's settings and what its tests could not observe. */
function reasonFor(kind: CoverageKind, context: CoverageContext, item?: { webhookOnly?: boolean; checks?: string[] }): string {
  if (context.target === 'pact' && kind === 'transitions')
    return `${UNCOVERED.unreachable}: the Pact mock answers every record final already`;
  const webhooksUnseen = context.notChecked.find((n) => n.startsWith('webhooks:'));
  if (webhooksUnseen && (kind === 'events' || item?.webhookOnly)) return `${UNCOVERED.unreachable}: ${webhooksUnseen}`;
  const disabled = (item?.checks ?? []).filter((c) => context.checksDisabled.includes(c));
  if (disabled.length > 0 && disabled.length === item?.checks?.length)
    return `${UNCOVERED.setting}: checks disabled (${disabled.join(', ')})`;
  if (context.suitesSelected.length > 0) {
    const what = context.target === 'pact' ? `${UNCOVERED.unreachable}: the Pact mock runs` : `${UNCOVERED.setting}: only`;
    return `${what} the suites ${context.suitesSelected.join(', ')}`;
  }
  return UNCOVERED.notExercised;
}

const tallyOf = (items: readonly Judged[]): CoverageTally => {
  const covered = items.filter((i) => i.covered).length;
  const excluded = items.filter((i) => !i.covered && i.excluded).length;
  return {
    covered,
    total: items.length,
    percent: items.length === 0 ? 100 : Math.round((1000 * covered) / items.length) / 10,
    ...(excluded > 0 ? { excluded } : {}),
  };
};

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An item's name as the reports write it: one space between words, `->` written as the arrow `→`. */
export function normalizeItemName(item: string): string {
  return item
    .trim()
    .replace(/\s*(?:->|→)\s*/g, ' → ')
    .replace(/\s+/g, ' ');
}

/** Whether the item `name` (as {@link itemName} writes it) is what `pattern` names: `*` matches any text. */
export function itemMatches(pattern: string, name: string): boolean {
  return new RegExp(`^${normalizeItemName(pattern).split('*').map(escapeRegExp).join('.*')}$`).test(name);
}

/** Judges every item (covered, and why not) and counts the summary: a function of the facts alone. */
function judge(c: Coverage): Coverage {
  const ctx = c.context;
  const exclusion = (kind: CoverageKind, i: unknown): Judged['excluded'] => {
    const name = itemName(kind, i);
    const hit = (ctx.exclude ?? []).find((e) => itemMatches(e.item, name));
    return hit ? { by: hit.item, reason: hit.reason } : undefined;
  };
  const judged = <T extends Judged>(
    items: T[],
    kind: CoverageKind,
    covered: (i: T) => boolean,
    extra?: (i: T) => { webhookOnly?: boolean; checks?: string[] },
  ): T[] =>
    items.map((i) => {
      const { reason: _old, excluded: _was, ...rest } = i;
      if (covered(i)) return { ...rest, covered: true } as T;
      const excluded = exclusion(kind, i);
      return { ...rest, covered: false, reason: reasonFor(kind, ctx, extra?.(i)), ...(excluded ? { excluded } : {}) } as T;
    });
  const operations = judged(c.operations, 'operations', (o) => o.tests.length > 0);
  const statuses = judged(c.statuses, 'statuses', (s) => s.tests.length > 0).map((s) => {
    // The contract documents alternatives (unpair: 200 or 204); a service answers one of them, so
    // the other cannot be asked of it: not required by the gate either.
    const other =
      s.covered || !s.status.startsWith('2')
        ? undefined
        : c.statuses.filter((r) => r.operationId === s.operationId && r.status.startsWith('2') && r.tests.length > 0).map((r) => r.status);
    if (!other?.length) return s;
    const why = `it answered ${s.operationId} with ${other.join(', ')}, another success status the contract documents`;
    return { ...s, reason: `${UNCOVERED.unreachable}: ${why}`, excluded: s.excluded ?? { by: 'contract', reason: why } };
  });
  const enums = judged(
    c.enums,
    'enums',
    (e) => e.tests > 0,
    (e) => ({ webhookOnly: c.events.some((v) => v.schema === e.schema) }),
  );
  const transitions = judged(
    c.transitions.map((t) => ({
      ...t,
      by:
        t.polling > 0 && t.webhook > 0
          ? ('both' as const)
          : t.polling > 0
            ? ('polling' as const)
            : t.webhook > 0
              ? ('webhook' as const)
              : ('none' as const),
    })),
    'transitions',
    (t) => t.by !== 'none',
  );
  const events = judged(
    c.events.map((e) => ({ ...e, validlySigned: (e.deliveries.valid ?? 0) > 0 })),
    'events',
    (e) => e.validlySigned,
  );
  const clauses = judged(
    c.clauses,
    'clauses',
    (k) =>
      k.tests.length > 0 || Object.keys(k.findings).length > 0 || Object.values(k.checks).some((t) => (t.pass ?? 0) + (t.fail ?? 0) > 0),
    (k) => ({ checks: Object.keys(k.checks) }),
  );
  const inputs = judged(
    c.inputs,
    'inputs',
    (i) => i.tests > 0 || (i.expected && c.inputs.some((j) => j.tests > 0 && j.class.startsWith(`${i.class} `))),
  );
  const documented = statuses.filter((s) => s.documented);
  const summary = {
    operations: tallyOf(operations),
    statuses: tallyOf(documented),
    statuses2xx: tallyOf(
      [...new Set(documented.filter((s) => s.status.startsWith('2')).map((s) => s.operationId))].map((op) => ({
        covered: documented.some((s) => s.operationId === op && s.status.startsWith('2') && s.covered),
      })),
    ),
    enums: tallyOf(enums),
    transitions: tallyOf(transitions),
    events: tallyOf(events.filter((e) => e.schema !== '')),
    clauses: tallyOf(clauses.filter((k) => k.documented)),
    inputs: tallyOf(inputs.filter((i) => i.expected)),
  };
  return { ...c, summary, operations, statuses, enums, transitions, events, clauses, inputs };
}

/**
 * The coverage of a run from its tests' records: each contract operation, documented status, enum
 * value of a response or webhook field, edge of the profile's graphs, webhook event type and clause
 * of the spec documents, covered or not (and why), with the request classes sent and a summary.
 */
export function buildCoverage(record: Pick<RunRecord, 'tests'>, info: CoverageInfo, opts: { specDir?: string } = {}): Coverage {
  const context: CoverageContext = {
    target: info.target.kind,
    profile: info.profile,
    suitesSelected: [...info.suitesSelected].sort(),
    checksDisabled: [...(info.checksDisabled ?? [])].sort(),
    notChecked: [],
    tests: 0,
    ...(info.coverageExclude?.length
      ? { exclude: [...info.coverageExclude].sort((a, b) => (a.item < b.item ? -1 : a.item > b.item ? 1 : 0)) }
      : {}),
  };
  let c = skeleton(context, specClauses(opts.specDir));
  const documented = new Set(c.clauses.map((k) => k.clause));
  for (const t of record.tests) c = mergeFacts(c, factsOf(t, context, documented));
  return judge(c);
}

/**
 * Two coverages as one: that of shards merged is the coverage of the whole run (every fact is a sum
 * or a union, and the judgement a function of the facts). The settings are the first's: shards of
 * one run share them (merge-reports checks).
 */
export function mergeCoverage(a: Coverage, b: Coverage): Coverage {
  return judge(mergeFacts(a, b));
}

/** The name of an item in a list of what was not covered. */
function itemName(kind: CoverageKind, i: unknown): string {
  const x = i as Record<string, string>;
  switch (kind) {
    case 'operations':
      return x.operationId!;
    case 'statuses':
      return `${x.operationId} ${x.status}`;
    case 'enums':
      return `${x.schema}.${x.field}=${x.value}`;
    case 'transitions':
      return `${x.graph} ${x.from} → ${x.to}`;
    case 'events':
      return x.event!;
    case 'clauses':
      return x.clause!;
    case 'inputs':
      return x.class!;
  }
}

/** An item not covered: its kind, its name (`getToken 500`, `transaction SUCCESS → REVERTED`) and why. */
export interface UncoveredItem {
  kind: CoverageKind;
  item: string;
  reason: string;
}

/** Whether an item counts in its kind's summary (documented statuses, listed events and clauses, expected inputs). */
function counted(kind: CoverageKind, i: unknown): boolean {
  const x = i as { documented?: boolean; schema?: string; expected?: boolean };
  if (kind === 'statuses' || kind === 'clauses') return x.documented !== false;
  if (kind === 'events') return x.schema !== '';
  if (kind === 'inputs') return x.expected === true;
  return true;
}

/** What of `kinds` the run never covered and nothing excluded, each with why, in the order of the sections. */
export function uncoveredItems(coverage: Coverage, kinds: readonly CoverageKind[] = COVERAGE_KINDS): UncoveredItem[] {
  return COVERAGE_KINDS.filter((k) => kinds.includes(k)).flatMap((kind) =>
    (coverage[kind] as (Judged & object)[])
      .filter((i) => counted(kind, i) && !i.covered && !i.excluded)
      .map((i) => ({ kind, item: itemName(kind, i), reason: i.reason ?? UNCOVERED.notExercised })),
  );
}

/** An item not covered that the gate does not require: by whom (`coverage.exclude`'s item, or `contract`) and why. */
export interface ExcludedItem extends UncoveredItem {
  by: string;
  /** Why it is excluded (the exclusion's reason); `reason` stays why it was not covered. */
  excludedBecause: string;
}

/** What of `kinds` the run never covered but excluded from the gate, in the order of the sections. */
export function excludedItems(coverage: Coverage, kinds: readonly CoverageKind[] = COVERAGE_KINDS): ExcludedItem[] {
  return COVERAGE_KINDS.filter((k) => kinds.includes(k)).flatMap((kind) =>
    (coverage[kind] as (Judged & object)[])
      .filter((i) => counted(kind, i) && !i.covered && i.excluded)
      .map((i) => ({
        kind,
        item: itemName(kind, i),
        reason: i.reason ?? UNCOVERED.notExercised,
        by: i.excluded!.by,
        excludedBecause: i.excluded!.reason,
      })),
  );
}

/** Every item of the coverage by its name, for naming the nearest to an exclusion that names none. */
export function coverageItemNames(coverage: Coverage): string[] {
  return COVERAGE_KINDS.flatMap((kind) => (coverage[kind] as object[]).filter((i) => counted(kind, i)).map((i) => itemName(kind, i)));
}

/** One line for the console: `coverage: operations 15/15, statuses 58/71 + 13 excluded (a 2xx of 15/15 operations), …`. */
export function coverageLine(coverage: Pick<Coverage, 'summary'>): string {
  const s = coverage.summary;
  const excluded = (t: CoverageTally) => (t.excluded ? ` + ${t.excluded} excluded` : '');
  const of2xx = (k: string) => (k === 'statuses' ? ` (a 2xx of ${s.statuses2xx.covered}/${s.statuses2xx.total} operations)` : '');
  return `coverage: ${COVERAGE_KINDS.map((k) => `${k} ${s[k].covered}/${s[k].total}${excluded(s[k])}${of2xx(k)}`).join(', ')}`;
}

/** The Coverage section of the certification (Markdown): a table of the kinds, then what was never seen, by reason. */
export function coverageMarkdown(coverage: Coverage): string {
  const s = coverage.summary;
  const rows = [
    ...COVERAGE_KINDS.flatMap((k) => [
      [k, s[k]] as const,
      ...(k === 'statuses' ? [['a documented 2xx, by operation', s.statuses2xx] as const] : []),
    ]),
  ].map(([k, t]) => `| ${k} | ${t.covered} | ${t.excluded ?? 0} | ${t.total} | ${t.percent} % |`);
  const out = ['## Coverage', '', '| Kind | Covered | Excluded | Total | Percent |', '|---|---:|---:|---:|---:|', ...rows, ''];
  const excluded = excludedItems(coverage);
  if (excluded.length > 0) {
    out.push(`Excluded from the gate (${excluded.length}: never seen, and not required, with why):`, '');
    for (const e of excluded)
      out.push(
        `- **${e.kind}** \`${e.item}\`${e.by === 'contract' || normalizeItemName(e.by) === e.item ? '' : ` (by \`${e.by}\`)`}: ${e.excludedBecause}`,
      );
    out.push('');
  }
  const missing = uncoveredItems(coverage);
  if (missing.length === 0)
    return [...out, excluded.length > 0 ? 'Every other item was covered.' : 'Every item was covered.', ''].join('\n');
  out.push('Never seen:', '');
  for (const kind of COVERAGE_KINDS) {
    const byReason = new Map<string, string[]>();
    for (const m of missing.filter((x) => x.kind === kind)) byReason.set(m.reason, [...(byReason.get(m.reason) ?? []), m.item]);
    for (const [reason, items] of byReason)
      out.push(`- **${kind}** (${items.length}), ${reason}: ${items.map((i) => `\`${i}\``).join(', ')}`);
  }
  return [...out, ''].join('\n');
}

/**
 * The run's `coverage.exclude`, checked against the items the coverage lists for `profile`: each must
 * name at least one of them (`*` matches any text), else it is an error naming the nearest item, so a
 * misspelt exclusion never leaves the gate failing for a reason nobody reads, nor hides another item.
 *
 * @throws ToolkitError `o.code` (default PCC_CONFIG_INVALID) for an exclusion that names no item
 */
export function checkCoverageExclusions(
  exclude: readonly CoverageExclusion[],
  profile: string,
  o: { where?: string; code?: ErrorCode; specDir?: string } = {},
): CoverageExclusion[] {
  if (exclude.length === 0) return [];
  const names = coverageItemNames(
    buildCoverage(
      { tests: [] },
      { target: { kind: 'sim' }, profile, suitesSelected: [], checksDisabled: [] },
      o.specDir ? { specDir: o.specDir } : {},
    ),
  );
  for (const e of exclude) {
    if (names.some((n) => itemMatches(e.item, n))) continue;
    const wanted = normalizeItemName(e.item);
    const nearest = names.map((n) => ({ n, d: editDistance(wanted, n) })).sort((a, b) => a.d - b.d || (a.n < b.n ? -1 : 1))[0]?.n;
    throw new ToolkitError(
      o.code ?? 'PCC_CONFIG_INVALID',
      `${o.where ?? 'coverage.exclude'}: ${JSON.stringify(e.item)} names no coverage item${nearest ? `; the nearest is ${JSON.stringify(nearest)}` : ''}`,
      'name an item as summary.json (coverage.uncovered) and coverage.json name it: `getToken 500`, ' +
        '`PrintSlip.tags[]=overpaid`, `operation INITIATED -> FAILED`, `spec#versioning`; * matches any text',
    );
  }
  return exclude.map((e) => ({ item: e.item, reason: e.reason }));
}
