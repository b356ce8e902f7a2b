/** What the reporters keep of each test. */
import type { CoverageDigest, Finding, HarnessMeta, OperatorEntry, RepeatRecord, RootCause, TimingDigest } from '../core/index.ts';

export interface TestRecord {
  /** `capability > scenario`. */
  name: string;
  capability: string;
  clause: string;
  file: string;
  state: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  findings: Finding[];
  skipReason?: string;
  /** The service defect that kept the test from going on. */
  blockedBy?: RootCause;
  /** Defects the test saw again after an earlier test reported them. */
  repeats?: RepeatRecord[];
  /** Why the test did not finish, when a time budget stopped it. */
  notFinished?: 'run budget exceeded' | 'time budget exceeded' | 'stopped by the operator';
  toolkitError?: { code: string; message: string; hint?: string };
  /** Assertion or crash messages vitest recorded. */
  errors: string[];
  /** The stack of the first of `errors` (Allure's trace), redacted. */
  trace?: string;
  /** The describe blocks around the test, outermost first (a test run by vitest; absent for tests built directly). */
  suitePath?: string[];
  /** The machine the test ran on (Allure's host label). */
  host?: string;
  parameters: Record<string, string>;
  exchanges: unknown[];
  /** How many exchanges the test made (`exchanges` may hold fewer). */
  exchangeCount: number;
  /** Webhook deliveries the receivers saw during the test, redacted (see {@link DeliveryView}). */
  deliveries?: unknown[];
  /** When the test started, ISO 8601 (absent when it never ran). */
  startedAt?: string;
  /** Manual mode: what the operator was asked and did. */
  operator?: OperatorEntry[];
  /** Passed earlier in the session this run resumed: the record is that earlier one. */
  carriedFrom?: string;
  /** What the test could not observe, each with why: "not checked", never "passed". */
  notChecked?: string[];
  /** Transactions and operations that became final by polling where the test could see webhook deliveries. */
  webhookFinals?: number;
  /** A verdict over the whole run (e.g. "the service sends webhooks"), not one test: listed first. */
  wholeRun?: boolean;
  /** How the harness fared during the test (its worker's load, waits measured again, overload). */
  harness?: HarnessMeta;
  /** What the test exercised, every exchange and delivery counted (see {@link CoverageDigest}); coverage.json is built from it. */
  coverage?: CoverageDigest;
  /** How long the service took in the test (see {@link TimingDigest}); summary.json's `timing` is built from it. */
  timing?: TimingDigest;
}

/** The whole run's outcome, as the reporters see it. */
export interface RunRecord {
  tests: TestRecord[];
  /** Errors vitest saw outside tests (a suite file that failed to load...). */
  unhandled: string[];
  /**
   * Errors of a describe block's hooks (`beforeAll` …), named by the block: its tests carry vitest's
   * own state; Allure lists these among the run's errors, the verdict reads the tests.
   */
  suiteErrors?: string[];
  startedAt: string;
  durationMs: number;
}

/**
 * One webhook delivery as the suites' setup leaves it in the test meta (redacted): the receiver's
 * record without the raw bytes. Every field is optional: reports read it defensively.
 */
export interface DeliveryView {
  seq?: number;
  receivedAt?: string;
  method?: string;
  /** The receiver's URL the delivery was posted to. */
  url?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  event?: string;
  eventId?: string;
  signature?: string;
  /** The status the receiver answered. */
  status?: number;
  duplicate?: boolean;
  failedOnPurpose?: boolean;
  /** The pairing whose receiver got it (`vault#1`, `pcc-…`). */
  pairing?: string;
}
