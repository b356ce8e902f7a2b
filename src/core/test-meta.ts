/**
 * What a test leaves for the reporters in its task meta (vitest carries it to the main process):
 * its capability, clause, findings, and a toolkit error if one stopped it.
 */
import type { RootCause } from './defect.ts';
import type { Finding } from './finding.ts';

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
