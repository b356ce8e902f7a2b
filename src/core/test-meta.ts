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
  notFinished?: 'run budget exceeded' | 'time budget exceeded';
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
}

/** The key of TestMeta in vitest's task meta. */
export const META_KEY = 'payconnect';
