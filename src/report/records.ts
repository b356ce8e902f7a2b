/** What the reporters keep of each test. */
import type { Finding } from '../core/index.ts';

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
  toolkitError?: { code: string; message: string; hint?: string };
  /** Assertion or crash messages vitest recorded. */
  errors: string[];
  parameters: Record<string, string>;
  exchanges: unknown[];
}

/** The whole run's outcome, as the reporters see it. */
export interface RunRecord {
  tests: TestRecord[];
  /** Errors vitest saw outside tests (a suite file that failed to load...). */
  unhandled: string[];
  startedAt: string;
  durationMs: number;
}
