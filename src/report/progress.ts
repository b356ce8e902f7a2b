/**
 * Live progress of a run in a terminal: the suite, the running test with its elapsed time, and one
 * line per finished test. Meant for a TTY only: the CLI does not attach it when output is a log.
 */
import type { RunEvents } from './collector.ts';
import type { TestRecord } from './records.ts';

/** Options of {@link LiveProgress}. */
export interface LiveProgressOptions {
  write: (s: string) => void;
  /** How often the running line is redrawn. @default 100 */
  tickMs?: number;
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
  #suite: string | undefined;
  #test: { name: string; started: number } | undefined;
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;
  #drawn = false;
  #done = 0;

  constructor(opts: LiveProgressOptions) {
    this.#o = { tickMs: 100, columns: () => process.stdout.columns || 100, now: Date.now, ...opts };
    this.#started = this.#o.now();
  }

  onSuiteStart(e: { capability: string }): void {
    this.#header(e.capability);
  }

  onTestStart(e: { capability: string; name: string }): void {
    this.#header(e.capability);
    this.#test = { name: e.name, started: this.#o.now() };
    this.#timer ??= setInterval(() => this.#draw(), this.#o.tickMs);
    this.#timer.unref?.();
    this.#draw();
  }

  onTest(t: TestRecord): void {
    this.#header(t.capability);
    this.#clear();
    const mark = t.state === 'passed' ? '✓' : t.state === 'failed' ? '✗' : '-';
    const warns = t.findings.filter((f) => f.severity === 'warning').length;
    const fails = t.findings.filter((f) => f.severity === 'failure').length;
    const notes = [...(fails ? [`${fails} failure${fails > 1 ? 's' : ''}`] : []), ...(warns ? [`${warns} warning${warns > 1 ? 's' : ''}`] : []), ...(t.toolkitError ? [t.toolkitError.code] : []), ...(t.skipReason ? [t.skipReason] : [])];
    const scenario = t.name.startsWith(`${t.capability} > `) ? t.name.slice(t.capability.length + 3) : t.name;
    this.#o.write(`  ${mark} ${scenario} (${t.durationMs.toFixed(0)} ms)${notes.length ? `  ${notes.join('; ')}` : ''}\n`);
    this.#done++;
    if (this.#test?.name === scenario) this.#test = undefined;
  }

  /** Stops redrawing and clears the running line. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#clear();
  }

  #header(capability: string): void {
    if (capability === this.#suite) return;
    this.#clear();
    this.#suite = capability;
    this.#o.write(`${capability}\n`);
  }

  #clear(): void {
    if (this.#drawn) this.#o.write('\r\x1b[2K');
    this.#drawn = false;
  }

  #draw(): void {
    if (!this.#test) return;
    const now = this.#o.now();
    const spin = SPINNER[this.#frame++ % SPINNER.length];
    const tail = `  ${((now - this.#test.started) / 1000).toFixed(1)} s  [${this.#done} done, ${clock(now - this.#started)}]`;
    const room = Math.max(10, this.#o.columns() - tail.length - (this.#suite?.length ?? 0) - 9);
    const name = this.#test.name.length > room ? `${this.#test.name.slice(0, room - 1)}…` : this.#test.name;
    this.#o.write(`\r\x1b[2K  ${spin} ${this.#suite ?? ''} > ${name}${tail}`);
    this.#drawn = true;
  }
}
