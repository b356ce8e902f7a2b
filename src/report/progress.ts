/**
 * Progress of a run while it goes: one line per finished test (`✓ capability > scenario (ms)`, with
 * its failures, warnings or skip reason). Tests finish in any order, several at a time on a pool of
 * terminals, so every line names its capability. In a terminal (`live`), a redrawn last row shows
 * how many tests are running and the newest of them; in a log (CI, no TTY), a heartbeat line every
 * `heartbeatMs` without a finished test says the run is alive.
 */
import { failuresOf, knownOf, notCheckedLine, warningsOf } from './outcome.ts';
import type { RunEvents } from './collector.ts';
import type { TestRecord } from './records.ts';

/** Options of {@link LiveProgress}. */
export interface LiveProgressOptions {
  write: (s: string) => void;
  /** Redraw a running line (a terminal), or print heartbeats (a log). @default true */
  live?: boolean;
  /** A line per finished suite file (capability and counts) instead of one per test. @default false */
  quiet?: boolean;
  /** How often the running line is redrawn, or a heartbeat considered. @default 100 (live), 1000 (log) */
  tickMs?: number;
  /** A log gets a heartbeat after this long without a line. @default 30000 */
  heartbeatMs?: number;
  /** The terminal width, to keep the running line on one row. @default () => process.stdout.columns || 100 */
  columns?: () => number;
  /** @default Date.now */
  now?: () => number;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** `m:ss` */
export function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export class LiveProgress implements RunEvents {
  readonly #o: Required<LiveProgressOptions>;
  readonly #started: number;
  /** Running tests, by name, with when each started (newest last). */
  readonly #running = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;
  #drawn = false;
  #done = 0;
  #lastLine: number;

  constructor(opts: LiveProgressOptions) {
    const live = opts.live ?? true;
    this.#o = {
      live,
      quiet: false,
      tickMs: live ? 100 : 1000,
      heartbeatMs: 30_000,
      columns: () => process.stdout.columns || 100,
      now: Date.now,
      ...opts,
    };
    this.#started = this.#o.now();
    this.#lastLine = this.#started;
  }

  onTestStart(e: { capability: string; name: string }): void {
    this.#running.set(`${e.capability} > ${e.name}`, this.#o.now());
    this.#timer ??= setInterval(() => this.#tick(), this.#o.tickMs);
    this.#timer.unref?.();
    if (this.#o.live) this.#draw();
  }

  onTest(t: TestRecord): void {
    this.#clear();
    const mark = t.state === 'passed' ? '✓' : t.state === 'failed' ? '✗' : '-';
    const warns = warningsOf(t).length;
    const fails = failuresOf(t);
    const known = knownOf(t);
    const ticket = known.length ? (known[0]!.known!.ticket ?? `baseline entry ${known[0]!.known!.entry}`) : '';
    const notes = [
      ...(fails.length ? [`${fails.length} failure${fails.length > 1 ? 's' : ''}: ${fails[0]!.check}`] : []),
      ...(known.length ? [`${known.length} known defect${known.length > 1 ? 's' : ''}: ${known[0]!.check} (${ticket})`] : []),
      ...(warns ? [`${warns} warning${warns > 1 ? 's' : ''}`] : []),
      ...(t.toolkitError ? [t.toolkitError.code] : []),
      ...(t.skipReason ? [t.skipReason] : []),
      ...(t.notChecked?.length ? [notCheckedLine(t)!] : []),
    ];
    if (!this.#o.quiet) {
      this.#o.write(`  ${mark} ${t.name} (${t.durationMs.toFixed(0)} ms)${notes.length ? `  ${notes.join('; ')}` : ''}\n`);
      this.#lastLine = this.#o.now();
    }
    this.#done++;
    this.#running.delete(t.name);
    if (this.#o.live) this.#draw();
  }

  /** With `quiet`: one line per finished suite file, its capability and counts. */
  onSuiteEnd(e: { capability: string; file: string; tests: TestRecord[] }): void {
    if (!this.#o.quiet || e.tests.length === 0) return;
    this.#clear();
    const n = (s: TestRecord['state']) => e.tests.filter((t) => t.state === s).length;
    const failed = n('failed');
    const part = e.file
      .split('/')
      .pop()!
      .replace(/\.suite\.ts$/, '');
    this.#o.write(
      `  ${failed > 0 ? '✗' : '✓'} ${e.capability}${part === e.capability ? '' : ` (${part})`}: ${n('passed')} ` +
        `passed, ${failed} failed, ${n('skipped')} skipped\n`,
    );
    this.#lastLine = this.#o.now();
    if (this.#o.live) this.#draw();
  }

  /** Stops redrawing and clears the running line. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#clear();
  }

  #tick(): void {
    if (this.#o.live) return this.#draw();
    const now = this.#o.now();
    if (now - this.#lastLine < this.#o.heartbeatMs) return;
    const newest = [...this.#running.keys()].at(-1);
    this.#o.write(`  … ${this.#done} done, ${this.#running.size} running${newest ? ` (${newest})` : ''}, ${clock(now - this.#started)}\n`);
    this.#lastLine = now;
  }

  #clear(): void {
    if (this.#drawn) this.#o.write('\r\x1b[2K');
    this.#drawn = false;
  }

  #draw(): void {
    const newest = [...this.#running].at(-1);
    if (!newest) return this.#clear();
    const now = this.#o.now();
    const spin = SPINNER[this.#frame++ % SPINNER.length];
    const others = this.#running.size > 1 ? ` +${this.#running.size - 1}` : '';
    const tail = `  ${((now - newest[1]) / 1000).toFixed(1)} s${others}  [${this.#done} done, ${clock(now - this.#started)}]`;
    const room = Math.max(10, this.#o.columns() - tail.length - 6);
    const name = newest[0].length > room ? `${newest[0].slice(0, room - 1)}…` : newest[0];
    this.#o.write(`\r\x1b[2K  ${spin} ${name}${tail}`);
    this.#drawn = true;
  }
}
