/**
 * The baseline file (`--baseline FILE`): known defects of the service, each with a reason, a ticket and
 * an expiry date. Read and checked before a run starts (a bad file is exit 2, naming the entry), judged
 * after it (expired entries fail the run; entries a complete run did not need are resolved), and
 * written by `baseline write` from a run's findings, merged into the file without widening an entry.
 */
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import {
  type BaselineEntry,
  type Finding,
  ToolkitError,
  expiryTime,
  isExpired,
  normaliseMessage,
  operationOfFinding,
} from '../core/index.ts';
import type { RunRecord } from './records.ts';
import { writeReportFile } from './write.ts';

/** The YAML reader and writer, loaded for the first YAML baseline (a CommonJS package: synchronous). */
let yamlModule: typeof import('yaml') | undefined;
const yaml = () => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

/** The file: a version and the entries. */
export interface BaselineFile {
  version: 1;
  entries: BaselineEntry[];
}

/** An entry as the reports name it: its place in the file (from 1) and what it says. */
export type BaselineEntryRef = BaselineEntry & { entry: number };

/** What the run made of its baseline, in summary.json. */
export interface BaselineSummary {
  file: string;
  entries: number;
  /** How many findings each entry matched (entries that matched none are absent). */
  matched: { entry: number; findings: number }[];
  /** Entries past their expiry: each fails the run. */
  expired: BaselineEntryRef[];
  /** Entries a complete run did not need: the defect is gone, remove them. */
  resolved: BaselineEntryRef[];
  /** Entries that matched nothing in a run that was not complete (restricted, sharded, stopped): not judged. */
  unseen?: BaselineEntryRef[];
}

const KEYS = new Set(['check', 'operation', 'clause', 'match', 'reason', 'ticket', 'expires']);
const HINT =
  'each entry is { check, operation?, clause?, match?, reason, ticket?, expires } with expires ' +
  'as YYYY-MM-DD; "payconnect-conformance baseline write" writes one from a run';

function invalid(file: string, what: string, hint = HINT): ToolkitError {
  return new ToolkitError('PCC_CONFIG_INVALID', `baseline ${file}: ${what}`, hint);
}

/** The entries of a parsed file, each checked; throws PCC_CONFIG_INVALID naming the entry and field. */
export function parseBaseline(data: unknown, file: string): BaselineFile {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw invalid(file, 'is not an object with "entries"');
  const { version, entries, ...rest } = data as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) throw invalid(file, `unknown key ${JSON.stringify(extra[0])} at the top level (only "version" and "entries")`);
  if (version !== undefined && version !== 1) throw invalid(file, `version ${JSON.stringify(version)} is not one this toolkit reads (1)`);
  if (!Array.isArray(entries)) throw invalid(file, '"entries" is not an array');
  return { version: 1, entries: entries.map((e, i) => entryOf(e, i + 1, file)) };
}

function entryOf(raw: unknown, n: number, file: string): BaselineEntry {
  const at = `entry ${n}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(file, `${at} is not an object`);
  const e = raw as Record<string, unknown>;
  const unknown = Object.keys(e).find((k) => !KEYS.has(k));
  if (unknown) throw invalid(file, `${at} has an unknown key ${JSON.stringify(unknown)}`);
  const text = (k: string, required: boolean): string | undefined => {
    const v = e[k];
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string' || v.trim() === '')
      throw invalid(
        file,
        `${at} ${v === undefined ? `has no "${k}"` : `"${k}" is not a non-empty string`}`,
        k === 'expires'
          ? 'every entry expires: give "expires": "YYYY-MM-DD" (a known defect is fixed by a date, or looked at again)'
          : HINT,
      );
    return v.trim();
  };
  const check = text('check', true)!;
  const reason = text('reason', true)!;
  const expires = text('expires', true)!;
  if (!/^\d{4}-\d{2}-\d{2}(T.+)?$/.test(expires) || Number.isNaN(expiryTime(expires)))
    throw invalid(file, `${at} "expires" is ${JSON.stringify(expires)}, not a date`, 'write the date as YYYY-MM-DD, e.g. 2026-12-31');
  const match = text('match', false);
  if (match !== undefined) {
    try {
      new RegExp(match);
    } catch (err) {
      throw invalid(
        file,
        `${at} "match" is not a regular expression: ${(err as Error).message}`,
        'escape special characters, e.g. "answered 500"',
      );
    }
  }
  const operation = text('operation', false);
  const clause = text('clause', false);
  const ticket = text('ticket', false);
  return {
    check,
    ...(operation ? { operation } : {}),
    ...(clause ? { clause } : {}),
    ...(match ? { match } : {}),
    reason,
    ...(ticket ? { ticket } : {}),
    expires,
  };
}

const isYaml = (file: string) => /\.ya?ml$/i.test(file);

/** Reads and checks a baseline file; a missing or malformed one is PCC_CONFIG_INVALID (exit 2). */
export function readBaseline(file: string): BaselineFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ToolkitError(
      'PCC_CONFIG_INVALID',
      `baseline ${file} cannot be read (${code ?? (e as Error).message})`,
      code === 'ENOENT'
        ? 'check the path; "payconnect-conformance baseline write FILE --from REPORTS_DIR ..." makes one from a run'
        : "check the file's permissions",
      { cause: e },
    );
  }
  let data: unknown;
  try {
    data = isYaml(file) ? yaml().parse(text) : JSON.parse(text);
  } catch (e) {
    throw invalid(
      file,
      `is not valid ${isYaml(file) ? 'YAML' : 'JSON'}: ${(e as Error).message.split('\n')[0]}`,
      'fix the syntax; nothing was run',
    );
  }
  return parseBaseline(data, file);
}

/** Writes the file atomically (JSON, or YAML for .yaml/.yml), never half-written. */
export function writeBaseline(file: string, baseline: BaselineFile): void {
  writeReportFile(file, isYaml(file) ? yaml().stringify(baseline) : `${JSON.stringify(baseline, null, 2)}\n`);
}

const refOf = (e: BaselineEntry, n: number): BaselineEntryRef => ({ entry: n, ...e });

/**
 * What the run made of its baseline. `complete`: every suite ran, unsharded and unfiltered, to its end;
 * only then is an entry that matched nothing resolved (else it is `unseen`).
 */
export function judgeBaseline(
  file: string,
  baseline: BaselineFile,
  record: RunRecord,
  opts: { now: number; complete: boolean },
): BaselineSummary {
  const counts = new Map<number, number>();
  for (const t of record.tests) for (const f of t.findings) if (f.known) counts.set(f.known.entry, (counts.get(f.known.entry) ?? 0) + 1);
  const refs = baseline.entries.map((e, i) => refOf(e, i + 1));
  const expired = refs.filter((r) => isExpired(r, opts.now));
  const idle = refs.filter((r) => !isExpired(r, opts.now) && !counts.has(r.entry));
  return {
    file,
    entries: baseline.entries.length,
    matched: [...counts].sort((a, b) => a[0] - b[0]).map(([entry, findings]) => ({ entry, findings })),
    expired,
    resolved: opts.complete ? idle : [],
    ...(!opts.complete && idle.length > 0 ? { unseen: idle } : {}),
  };
}

/**
 * Whether a run covered everything, to its end: every suite, no --grep, all shards (a merge), nothing
 * stopped or broken outside the tests. Only such a run shows that a baseline entry is no longer needed.
 */
export function isCompleteRun(
  record: Pick<RunRecord, 'tests' | 'unhandled'>,
  run: { suitesSelected: readonly string[]; grep?: string | undefined; oneShard?: boolean },
): boolean {
  return (
    run.suitesSelected.length === 0 &&
    !run.grep &&
    !run.oneShard &&
    record.unhandled.length === 0 &&
    !record.tests.some((t) => t.notFinished)
  );
}

/** `match` for one message: the message as a regular expression, its ids and large numbers any. */
export function matchOf(message: string): string {
  const escaped = normaliseMessage(message).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `^${escaped.replace(/<id>/g, '[A-Za-z0-9_-]+').replace(/<n>/g, '\\d+')}$`;
}

/** The entry `baseline write` makes for a finding: as narrow as the finding (check, operation, clause, message). */
export function entryFor(
  f: Pick<Finding, 'check' | 'clause' | 'message' | 'evidence'> & { operation?: string },
  meta: { reason: string; ticket?: string; expires: string },
): BaselineEntry {
  const operation = f.operation ?? operationOfFinding(f);
  return {
    check: f.check,
    ...(operation ? { operation } : {}),
    clause: f.clause,
    match: matchOf(f.message),
    reason: meta.reason,
    ...(meta.ticket ? { ticket: meta.ticket } : {}),
    expires: meta.expires,
  };
}

/** Whether two entries select the same findings (reason, ticket and expiry aside). */
const sameScope = (a: BaselineEntry, b: BaselineEntry) =>
  a.check === b.check && a.operation === b.operation && a.clause === b.clause && a.match === b.match;

/**
 * Merges new entries into a file's. An entry that selects what an existing one selects is not added
 * again; its expiry and reason are only changed when `renew` says so. An existing entry is never
 * widened: new entries are added beside it, never merged into it.
 */
export function mergeBaseline(
  existing: BaselineFile | undefined,
  added: readonly BaselineEntry[],
  renew = false,
): { file: BaselineFile; added: number; kept: number; renewed: number } {
  const entries = [...(existing?.entries ?? [])];
  const before = entries.length;
  let count = 0;
  let kept = 0;
  let renewed = 0;
  for (const e of added) {
    const i = entries.findIndex((x) => sameScope(x, e));
    if (i < 0) {
      entries.push(e);
      count++;
    } else if (i >= before)
      continue; // the same defect twice in one run: one entry
    else if (renew) {
      entries[i] = { ...entries[i]!, reason: e.reason, expires: e.expires, ...(e.ticket ? { ticket: e.ticket } : {}) };
      renewed++;
    } else kept++;
  }
  return { file: { version: 1, entries }, added: count, kept, renewed };
}

/** Reads the file when it exists (`baseline write` merges into it). */
export function readBaselineIfAny(file: string): BaselineFile | undefined {
  return existsSync(file) ? readBaseline(file) : undefined;
}
