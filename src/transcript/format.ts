/**
 * The transcript's line format (`transcript.jsonl.gz` in a run's reports): one JSON object a line,
 * the header first, then every event of every test, by test and then by sequence. Bodies beyond
 * {@link BODY_CAP} are kept as their SHA-256, length and first characters ({@link Capped}); a
 * check whose input was capped, or held secrets (redacted), is not re-judged but carried over.
 */
import { createHash } from 'node:crypto';
import type { Exchange, Finding } from '../core/index.ts';
import type { RunInfo, TestRecord } from '../report/index.ts';

/** The file name in the reports folder. */
export const TRANSCRIPT_FILE = 'transcript.jsonl.gz';
export const TRANSCRIPT_FORMAT = 'payconnect-conformance/transcript@1';

/** The most characters of one body (or any string) kept whole. */
export const BODY_CAP = 16 * 1024;

/** What is kept of a body or string over the cap. */
export interface Capped {
  $capped: { sha256: string; length: number; head: string };
}

/** How a finding a check made was filed: a finding of the test, a repeat of an earlier test's, seen again, or a duplicate within the scope. */
export type Disposition = 'filed' | 'repeat' | 'again' | 'dup';

/** A finding as a check event records it. */
export interface RecordedFinding {
  check: string;
  severity: Finding['severity'];
  clause: string;
  message: string;
  disposition: Disposition;
}

interface Base {
  /** The test the event belongs to (`capability > scenario`). */
  test: string;
  /** ISO 8601. */
  time: string;
  /** Order within the worker that wrote it. */
  seq: number;
  /** The worker (VITEST_POOL_ID), 0 for the main process. */
  w?: number;
  /** The shard it came from, in a merged transcript. */
  shard?: number;
}

/** A test's scope began (`parent`: a clean-up scope of that scope, whose findings join it). */
export interface ScopeEvent extends Base {
  kind: 'scope';
  scope: number;
  parent?: number;
}

/** An exchange and the automatic checks that failed on it. */
export interface ExchangeEvent extends Base {
  kind: 'exchange';
  scope: number;
  exchange: Exchange;
  auto?: { check: string; findings: RecordedFinding[] }[];
  /** A body was over the cap: the automatic checks are not re-judged. */
  capped?: boolean;
}

/**
 * A webhook delivery, its raw body kept to the cap, and the signature verdict. A delivery a command
 * sent (check-receiver: `sent` set, `pairing` the receiver's URL as shown) has the time it was sent
 * as `receivedAt`, the receiver's answer as `status` (0: none) and `exchange`, and whether its
 * signature was genuine (made with the receiver's key over these bytes), forged or absent.
 */
export interface DeliveryEvent extends Base {
  kind: 'delivery';
  pairing: string;
  /** The scope (a command's test) that sent it. */
  scope?: number;
  delivery: {
    seq: number;
    receivedAt: string;
    method: string;
    path: string;
    headers: Record<string, string>;
    event?: string;
    eventId?: string;
    signature: string;
    status: number;
    duplicate: boolean;
    failedOnPurpose: boolean;
    bodySha256: string;
    bodyLength: number;
    rawBody: string | Capped;
  };
  sent?: SentDeliveryFacts;
}

/** What a command knows of a delivery it sent (see {@link DeliveryEvent}). */
export interface SentDeliveryFacts {
  /** What it is (`transaction.success`, `no Signature header`...). */
  label: string;
  /** What its rule expects of the answer (`accepted`, `refused`, `refused-cleanly`). */
  expect: string;
  signatureVerdict: 'genuine' | 'forged' | 'absent';
  /** Why there was no answer (`ECONNREFUSED`, `PCC_TIMEOUT`...). */
  errorCode?: string;
  durationMs: number;
  /** The delivery as the reports hold it: the request as sent, the answer as received. */
  exchange: Exchange;
}

/** One entry of a recording a command judged (certify-client: the simulator's recording of the client), test `''`: the input its rules share. */
export interface RecordingEvent extends Base {
  kind: 'recording';
  entry: unknown;
  capped?: boolean;
}

/** One convergence observation. */
export interface ConvergenceEvent extends Base {
  kind: 'convergence';
  scope: number;
  observation: unknown;
}

/** One check invocation: its input (or the event that holds it), and the findings it gave. */
export interface CheckEvent extends Base {
  kind: 'check';
  scope: number;
  id: string;
  input?: unknown;
  /** The event (same test, same worker) whose exchange or observation is the input. */
  inputRef?: number;
  extra?: Record<string, unknown>;
  outcome: string;
  findings: RecordedFinding[];
  /** Why the input cannot be judged again offline (over the cap, secrets redacted). */
  unjudgeable?: string;
}

/** A finding filed by no check invocation (a root seen by a scope that only records, blocking a test). */
export interface FindingEvent extends Base {
  kind: 'finding';
  scope: number;
  finding: Finding;
  disposition: Disposition;
}

/** What the operator was asked and did (manual mode). */
export interface OperatorEvent extends Base {
  kind: 'operator';
  entry: unknown;
}

/** A test's record as the reports hold it (exchanges and deliveries are in the events). */
export interface TestEvent extends Base {
  kind: 'test';
  record: TestLineRecord;
}

/** A test's record without its exchanges and deliveries (events of their own). */
export type TestLineRecord = Omit<TestRecord, 'exchanges' | 'deliveries'>;

/** The first line: the run's settings, toolkit and contract, and what the summary says beyond the tests. */
export interface HeaderLine extends Base {
  kind: 'header';
  format: typeof TRANSCRIPT_FORMAT;
  info: RunInfo;
  settings: { profile: string; strict: boolean; disabledChecks: string[]; baseline?: { entries: unknown[]; now: number } };
  /** The run record's own fields besides its tests. */
  run: { startedAt: string; durationMs: number; unhandled: string[] };
  /** The summary's fields not built from the tests (shards, connection, confirmation, harness, baseline, seed, labels, times). */
  summary: Record<string, unknown>;
  /** The command that wrote it when not `run` (or a merge of runs): `check-receiver`, `certify-client`. */
  command?: CommandName;
  /** That command's own settings (never a secret). */
  options?: Record<string, unknown>;
}

/** The commands besides `run` that write a transcript. */
export type CommandName = 'check-receiver' | 'certify-client';

export type TranscriptEvent =
  ScopeEvent | ExchangeEvent | DeliveryEvent | ConvergenceEvent | CheckEvent | FindingEvent | OperatorEvent | TestEvent | RecordingEvent;
export type TranscriptLine = HeaderLine | TranscriptEvent;

/** The most characters of a response body a finding's evidence keeps. */
const MAX_EVIDENCE_BODY = 4096;

/** An exchange as a finding's evidence keeps it: the raw response body cut to {@link MAX_EVIDENCE_BODY}. */
export function trimmed(ex: Exchange): Exchange {
  const raw = ex.response?.rawBody;
  if (!raw || raw.length <= MAX_EVIDENCE_BODY) return ex;
  return { ...ex, response: { ...ex.response!, rawBody: `${raw.slice(0, MAX_EVIDENCE_BODY)}… (${raw.length} chars)` } };
}

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** `s` whole when within the cap, else its digest, length and first characters. */
export function capString(s: string, cap = BODY_CAP): string | Capped {
  return s.length <= cap ? s : { $capped: { sha256: sha256(s), length: s.length, head: s.slice(0, cap) } };
}

/**
 * `value` with every string over the cap, and every `body` whose JSON is over it, capped; `capped`
 * says whether anything was.
 */
export function capValue(value: unknown, cap = BODY_CAP): { value: unknown; capped: boolean } {
  let capped = false;
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') {
      if (v.length <= cap) return v;
      capped = true;
      return capString(v, cap);
    }
    if (v === null || typeof v !== 'object') return v;
    if (key === 'body') {
      const text = JSON.stringify(v);
      if (text !== undefined && text.length > cap) {
        capped = true;
        return capString(text, cap);
      }
    }
    if (Array.isArray(v)) return v.map((x) => walk(x));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, k);
    return out;
  };
  return { value: walk(value), capped };
}

/** The order of a transcript's events: by test (in `order`, else by name), the test's record last, then worker and sequence. */
export function compareEvents(order: ReadonlyMap<string, number>) {
  const rank = (e: TranscriptEvent) => order.get(groupKey(e)) ?? Number.MAX_SAFE_INTEGER;
  return (a: TranscriptEvent, b: TranscriptEvent): number =>
    rank(a) - rank(b) ||
    (a.test < b.test ? -1 : a.test > b.test ? 1 : 0) ||
    (a.shard ?? 0) - (b.shard ?? 0) ||
    Number(a.kind === 'test') - Number(b.kind === 'test') ||
    (a.w ?? 0) - (b.w ?? 0) ||
    a.seq - b.seq;
}

/** The key a test's events are grouped by: its shard (merged transcripts) and name. */
export const groupKey = (e: { test: string; shard?: number }): string => `${e.shard ?? 0}\u0000${e.test}`;
