/**
 * The state of a session, kept in the reports folder as tests pass (`session.json`), so that
 * `run --resume` can go on after Ctrl+C, a closed laptop or a lost network without repeating what
 * passed. It holds the passed tests' records (redacted, like every report) and what the run must
 * keep the same to be the same session; credentials stay in the vault, which was saved at pairing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolkitError } from '../core/index.ts';
import type { TestRecord } from './records.ts';
import { scrubSecrets } from './scrub.ts';
import { writeReportFile } from './write.ts';

/** The file name in the reports folder. */
export const SESSION_FILE = 'session.json';
const FORMAT = 'payconnect-conformance/session@1';

/** What makes two runs one session: a resumed run must match on each. */
export interface SessionFingerprint {
  target: string;
  profile: string;
  terminalMode: string;
  strict: boolean;
  suites: string[];
  grep: string;
  /** Simulator fault switches (sim target only): a pass under other faults is another run's. */
  faults: string[];
  contractSha256: string;
  toolVersion: string;
}

export interface SessionState {
  format: typeof FORMAT;
  fingerprint: SessionFingerprint;
  /** The seed and labels of the session: a resumed run takes them over. */
  seed: number;
  labels: Record<string, string>;
  /** When the session began (its first run). */
  startedAt: string;
  updatedAt: string;
  /** How many runs the session has had (1 for the first). */
  runs: number;
  /** The tests that passed, with their evidence, in the order they passed. */
  passed: TestRecord[];
  /** How many tests the last run of the session had (set when it ends). */
  total?: number;
}

/** Reads the session of a reports folder; none, a broken file or another version is a usage error. */
export function readSession(dir: string): SessionState {
  const path = join(dir, SESSION_FILE);
  if (!existsSync(path)) {
    throw new ToolkitError(
      'PCC_USAGE',
      `--resume: ${dir} holds no ${SESSION_FILE}, so there is no session to go on with`,
      'give the --reports folder of the interrupted run, or start a new session without --resume',
    );
  }
  let parsed: Partial<SessionState>;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<SessionState>;
  } catch (e) {
    throw new ToolkitError(
      'PCC_USAGE',
      `--resume: ${path} is not valid JSON (${(e as Error).message.split('\n')[0]})`,
      'it is written whole or not at all, so it was changed afterwards: start a new session without --resume',
      { cause: e },
    );
  }
  if (parsed.format !== FORMAT || !parsed.fingerprint || !Array.isArray(parsed.passed)) {
    throw new ToolkitError(
      'PCC_USAGE',
      `--resume: ${path} is not a session of this version (${String(parsed.format)})`,
      `resume with the version that began the session (${FORMAT}), or start a new one without --resume`,
    );
  }
  return parsed as SessionState;
}

/** The session in `dir`, if a readable one is there (never throws: for a note, not a decision). */
export function peekSession(dir: string): (SessionState & { total: number }) | undefined {
  try {
    const s = readSession(dir);
    return { ...s, total: s.total ?? Number.POSITIVE_INFINITY };
  } catch {
    return undefined;
  }
}

const FIELDS: [keyof SessionFingerprint, string][] = [
  ['target', 'target'],
  ['profile', 'profile'],
  ['terminalMode', 'terminal mode'],
  ['strict', 'strictness'],
  ['suites', 'suites'],
  ['grep', '--grep'],
  ['faults', 'simulator faults'],
  ['contractSha256', 'contract'],
  ['toolVersion', 'toolkit version'],
];

/** Refuses to resume a session with other settings: the result would mix two different runs. */
export function assertSameSession(
  state: SessionState,
  now: SessionFingerprint,
  given: { seed?: number; labels?: Record<string, string> },
  dir: string,
): void {
  const text = (v: unknown) => (Array.isArray(v) ? v.join(', ') || 'all' : String(v) || '(none)');
  for (const [key, what] of FIELDS) {
    if (text(state.fingerprint[key]) !== text(now[key])) {
      throw new ToolkitError(
        'PCC_USAGE',
        `--resume: the session in ${dir} ran with ${what} ${text(state.fingerprint[key])}, this run has ${text(now[key])}`,
        'resume with the settings the session began with, or start a new session without --resume',
      );
    }
  }
  if (given.seed !== undefined && given.seed !== state.seed) {
    throw new ToolkitError(
      'PCC_USAGE',
      `--resume: the session's seed is ${state.seed}, --seed says ${given.seed}`,
      "drop --seed (a resumed run takes the session's)",
    );
  }
  const labels = (l: Record<string, string>) =>
    Object.entries(l)
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join(', ');
  if (given.labels !== undefined && labels(given.labels) !== labels(state.labels)) {
    throw new ToolkitError(
      'PCC_USAGE',
      `--resume: the session's labels are ${labels(state.labels) || '(none)'}, this run gives ${labels(given.labels) || '(none)'}`,
      "drop --label (a resumed run takes the session's)",
    );
  }
}

/**
 * Keeps `session.json` up to date as tests pass. With `throttleMs` 0 (a manual session, where each
 * test is minutes of a person's time) each pass is on disk before the next test starts; an unattended
 * run writes at most every `throttleMs` and at {@link flush}, so a long run does not rewrite its state
 * after every one of its hundreds of tests (a pass not yet written simply runs again on resume).
 * With `evidence` false the passes are kept without their exchanges and deliveries (the count stays):
 * an unattended run's state stays small, and its evidence is in the report of the run that made it.
 */
export class SessionWriter {
  readonly #path: string;
  readonly #state: SessionState;
  readonly #throttleMs: number;
  readonly #evidence: boolean;
  #lastWrite = 0;
  #dirty = false;

  constructor(
    dir: string,
    base: Omit<SessionState, 'format' | 'updatedAt' | 'passed'>,
    carried: readonly TestRecord[] = [],
    opts: { throttleMs?: number; evidence?: boolean } = {},
  ) {
    this.#throttleMs = opts.throttleMs ?? 0;
    this.#evidence = opts.evidence ?? true;
    this.#path = join(dir, SESSION_FILE);
    this.#state = { format: FORMAT, ...base, updatedAt: new Date().toISOString(), passed: [...carried] };
    this.#write();
  }

  /** Records a finished test; only a pass is kept (anything else runs again on resume). */
  add(test: TestRecord): void {
    if (test.state !== 'passed' || test.carriedFrom !== undefined) return;
    const kept = this.#evidence ? test : { ...test, exchanges: [], ...(test.deliveries ? { deliveries: [] } : {}) };
    this.#state.passed = [...this.#state.passed.filter((t) => t.name !== test.name), scrubSecrets(kept)];
    this.#dirty = true;
    if (Date.now() - this.#lastWrite >= this.#throttleMs) this.#write();
  }

  /** Writes what is not on disk yet; `total`: the run ended, with this many tests. */
  flush(total?: number): void {
    if (total !== undefined) {
      this.#state.total = total;
      this.#dirty = true;
    }
    if (this.#dirty) this.#write();
  }

  get passed(): readonly TestRecord[] {
    return this.#state.passed;
  }

  #write(): void {
    this.#dirty = false;
    this.#lastWrite = Date.now();
    this.#state.updatedAt = new Date().toISOString();
    writeReportFile(this.#path, `${JSON.stringify(this.#state)}\n`);
  }
}
