/**
 * The operator's console of a manual session: tells the person at the terminal what to do, shows the
 * status while the harness watches the transaction converge, and takes their keys (skip, redo, abort,
 * and on a simulator's manual terminal its actions). Single keys, raw mode on a TTY, so a step is one
 * key press; plain lines when the output is not a TTY, so a log of the session reads cleanly.
 */
import type { SessionPlan } from './session-plan.ts';
import { cardFor } from './session-plan.ts';

/** The actions of a simulator's manual (virtual) terminal, offered as keys. */
export type OperatorAction = 'present-card' | 'decline' | 'fail' | 'remove-card' | 'timeout' | 'add-tip';

/** Where keys come from and lines go to: the controlling terminal, or streams in tests. */
export type { ConsoleIo } from '../core/io.ts';
import type { ConsoleIo } from '../core/io.ts';

/** What the operator made of a step. `kept`: the result differs from the expectation and they kept it. */
export type StepVerdict = { kind: 'done'; final?: string; kept?: boolean } | { kind: 'skip' } | { kind: 'redo' } | { kind: 'abort' };

/** One step as the operator sees it: its number in the session, the test, what to do, what to expect. */
export interface StepInfo {
  index: number;
  total: number;
  test: string;
  instruction: string;
  expected?: string;
}

/** Watches the terminal: reports progress through `status` and ends early once `stop` is aborted. */
type Watch = (status: (text: string) => void, stop: AbortSignal) => Promise<{ final?: string }>;

/** The keys of a virtual terminal's actions, in the order the keys line lists them. */
const ACT_KEYS: ReadonlyArray<readonly [string, OperatorAction, string]> = [
  ['p', 'present-card', 'present card'],
  ['d', 'decline', 'decline'],
  ['f', 'fail', 'fail'],
  ['x', 'remove-card', 'remove card'],
  ['t', 'timeout', 'timeout'],
  ['i', 'add-tip', 'add tip'],
];

const ENTER = '\n';
const CTRL_C = '\x03';
const CTRL_D = '\x04';
/** Not a character: the input ended (or the console was closed), so nobody is there to answer. */
const EOF = 'eof';

/** Lines stay short enough for a narrow terminal window. */
const MAX_LINE = 100;

/** Clears the current line of a TTY before it is redrawn. */
const CLEAR_LINE = '\r\x1b[2K';

/** What was recorded, said once the step ends. */
const RECORDED: Readonly<Record<'skip' | 'redo' | 'abort' | 'eof', string>> = {
  skip: '  skipped by the operator',
  redo: '  redo: this step runs again',
  abort: '  aborted by the operator: the session stops here',
  eof: '  no more input: the session stops here',
};

/** Text from outside (test names, statuses, error messages) never writes control characters. */
function clean(text: string): string {
  return text.replace(/\p{Cc}/gu, ' ');
}

/** Cuts a line to `max` characters, saying it was cut. */
function fit(line: string, max = MAX_LINE): string {
  return line.length <= max ? line : `${line.slice(0, Math.max(0, max - 3))}...`;
}

/**
 * The keys in a chunk of input. CR LF is one Enter; other whitespace is ignored. When the input is not
 * a TTY it arrives a line at a time, so a newline right after a key in the same chunk ends that line
 * rather than being a second key ("a\n" is a, "\n" alone is Enter). Letters are read case-blind.
 */
function keysOf(chunk: string, tty: boolean): string[] {
  const keys: string[] = [];
  let prev = '';
  for (const ch of chunk) {
    if (ch === '\r' || ch === '\n') {
      const crlf = prev === '\r' && ch === '\n';
      const endsLine = !tty && prev !== '' && prev !== '\r' && prev !== '\n';
      if (!crlf && !endsLine) keys.push(ENTER);
    } else if (/\s/u.test(ch)) {
      continue;
    } else {
      keys.push(ch === CTRL_D ? EOF : ch.toLowerCase());
    }
    prev = ch;
  }
  return keys;
}

/** One prompt's reading of keys: `active` turns false when it stops, so the rest of a chunk is dropped. */
interface KeySession {
  active: boolean;
  onKey: (key: string) => void;
  stop: () => void;
}

/**
 * The live status of a step. On a TTY one line redrawn in place with the elapsed time (refreshed by a
 * heartbeat, so the operator sees the harness is still there); otherwise a line per change of text.
 */
class StatusLine {
  private text: string | undefined;
  private shown = false;
  private ended = false;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (s: string) => void,
    private readonly tty: boolean,
    private readonly now: () => number,
    private readonly start: number,
    heartbeatMs: number,
  ) {
    if (tty) {
      this.timer = setInterval(() => this.draw(), heartbeatMs);
      this.timer.unref();
    }
  }

  /** What `watch` calls; ignored once the step is over (a watch may report late). */
  readonly set = (text: string): void => {
    if (this.ended) return;
    const t = clean(text);
    if (this.tty) {
      this.text = t;
      this.draw();
    } else if (t !== this.text) {
      this.text = t;
      this.write(`${fit(`  status: ${t}`)}\n`);
    }
  };

  /** Prints a whole line without garbling the status line (cleared, then drawn again below it). */
  line(text: string): void {
    if (!this.shown) return this.write(`${text}\n`);
    this.write(`${CLEAR_LINE}${text}\n`);
    this.shown = false;
    this.draw();
  }

  /** Stops the heartbeat and leaves the last status on screen. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer) clearInterval(this.timer);
    if (this.shown) this.write('\n');
    this.shown = false;
  }

  private draw(): void {
    if (this.ended || this.text === undefined) return;
    const suffix = ` (${Math.max(0, Math.floor((this.now() - this.start) / 1000))} s)`;
    this.write(`${CLEAR_LINE}${fit(`  status: ${this.text}`, MAX_LINE - suffix.length)}${suffix}`);
    this.shown = true;
  }
}

/** How the wait during a step ended: by itself, or by the operator (with the key's meaning). */
type WaitEnd = { by: 'watch'; final?: string } | { by: 'operator'; verdict: 'skip' | 'redo' | 'abort' | 'eof' };

export class OperatorConsole {
  private readonly act: ((a: OperatorAction) => Promise<string>) | undefined;
  private readonly now: () => number;
  private readonly heartbeatMs: number;
  private keys: KeySession | undefined;
  private status: StatusLine | undefined;
  private closed = false;

  constructor(
    private readonly io: ConsoleIo,
    opts: { act?: (a: OperatorAction) => Promise<string>; now?: () => number; heartbeatMs?: number } = {},
  ) {
    this.act = opts.act;
    this.now = opts.now ?? Date.now;
    this.heartbeatMs = opts.heartbeatMs ?? 1000;
  }

  /** The session's plan before it starts: its length, the cards to have ready, every step in order. */
  showPlan(plan: SessionPlan, carried = 0): void {
    const n = plan.steps.length;
    const minutes = Math.max(1, Math.round(plan.estimateMs / 60_000));
    const changes = `${plan.cardChanges} card change${plan.cardChanges === 1 ? '' : 's'}`;
    this.println(`Manual session: ${n} step${n === 1 ? '' : 's'} at the terminal, about ${minutes} min (${changes}).`);
    if (carried > 0) this.println(`Already passed and not repeated: ${carried} test${carried === 1 ? '' : 's'}.`);
    const width = Math.max(3, String(n).length + 1);
    plan.steps.forEach((s, i) => this.println(`${String(i + 1).padStart(width)}. ${cardFor(s.outcome).padEnd(15)}${s.test}`));
    const cards = [...new Set(plan.steps.map((s) => cardFor(s.outcome)).filter((c) => c !== 'no card'))];
    this.println(
      cards.length > 0
        ? `Have ready: ${cards.map((c) => `the ${c.replace(' card', ' test card')}`).join(', ')}.`
        : 'No test card is needed.',
    );
  }

  /** Asks to start: Enter starts; a, Ctrl+C or the end of input does not (nobody is there). */
  confirmStart(): Promise<boolean> {
    this.println('Press Enter to start, a to abort.');
    return new Promise((resolve) => {
      this.listen((key) => {
        if (key !== ENTER && key !== 'a' && key !== CTRL_C && key !== EOF) return;
        this.stopKeys();
        resolve(key === ENTER);
      });
    });
  }

  /**
   * One step: says what to do, runs `watch` and shows its status, and takes the operator's keys until
   * it ends. A key that ends the step aborts `stop` and waits for `watch` to settle, so the caller has
   * cancelled the transaction before the next step starts. A result other than the expected one is
   * the operator's to judge: redo, keep, skip or abort.
   */
  async step(info: StepInfo, watch: Watch): Promise<StepVerdict> {
    this.announce(info);
    const start = this.now();
    const status = new StatusLine((s) => this.write(s), this.io.output.isTTY === true, this.now, start, this.heartbeatMs);
    this.status = status;
    const stop = new AbortController();
    let watched: Promise<{ final?: string }>;
    try {
      watched = Promise.resolve(watch(status.set, stop.signal));
    } catch (e) {
      watched = Promise.reject(e);
    }
    let settled = false;
    const settledAt = watched.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    try {
      const end = await this.waitWithKeys(watched, () => settled);
      if (end.by === 'operator') {
        if (!settled) stop.abort();
        await settledAt; // its outcome no longer matters: the operator's verdict stands
        status.end();
        this.println(RECORDED[end.verdict]);
        return { kind: end.verdict === 'eof' ? 'abort' : end.verdict };
      }
      status.end();
      return await this.judge(info, end.final);
    } catch (e) {
      status.end();
      this.println(fit(`  the step stopped on an error: ${clean(e instanceof Error ? e.message : String(e))}`));
      throw e;
    } finally {
      status.end();
      this.status = undefined;
      this.stopKeys();
    }
  }

  /** One plain line. */
  note(line: string): void {
    this.println(fit(clean(line)));
  }

  /** Stops reading keys and restores the TTY's mode; a prompt still waiting ends as if input ended. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const waiting = this.keys;
    this.stopKeys();
    waiting?.onKey(EOF);
    this.status?.end();
  }

  private announce(info: StepInfo): void {
    this.println('');
    this.println(fit(`[step ${info.index}/${info.total}] ${clean(info.test)}`));
    this.println(fit(`  > ${clean(info.instruction)}`));
    this.println('  keys: s skip, r redo, a abort');
    if (this.act) this.println(`  virtual terminal: ${ACT_KEYS.map(([k, , label]) => `${k} ${label}`).join(', ')}`);
  }

  /**
   * Runs until `watched` settles or the operator ends the step. `a` asks first; while the question is
   * open a result of `watch` is held, so the answer still counts. Keys of the virtual terminal act at
   * once and leave the step running. Rejects with the error of `watch` when nobody stopped it.
   */
  private waitWithKeys(watched: Promise<{ final?: string }>, isSettled: () => boolean): Promise<WaitEnd> {
    return new Promise((resolve, reject) => {
      let over = false;
      let asking = false;
      let held: { final?: string } | undefined;
      const finish = (end: WaitEnd) => {
        if (over) return;
        over = true;
        this.stopKeys();
        resolve(end);
      };
      const byWatch = (r: { final?: string }) => finish(r.final !== undefined ? { by: 'watch', final: r.final } : { by: 'watch' });
      watched.then(
        (r) => (asking ? (held = r) : byWatch(r)),
        (e: unknown) => {
          if (over) return;
          over = true;
          this.stopKeys();
          reject(e);
        },
      );
      this.listen((key) => {
        if (key === CTRL_C || key === EOF) return finish({ by: 'operator', verdict: key === EOF ? 'eof' : 'abort' });
        if (asking) {
          asking = false;
          if (key === 'y') return finish({ by: 'operator', verdict: 'abort' });
          this.println('  not aborted');
          if (held) byWatch(held);
          return;
        }
        if (key === 's') return finish({ by: 'operator', verdict: 'skip' });
        if (key === 'r') return finish({ by: 'operator', verdict: 'redo' });
        if (key === 'a') {
          asking = true;
          return this.println('  abort the session? y/N');
        }
        const action = ACT_KEYS.find(([k]) => k === key)?.[1];
        if (action && this.act && !isSettled()) void this.runAct(this.act, action, () => !over);
      });
    });
  }

  /** Calls the virtual terminal and prints its line, unless the step ended meanwhile. */
  private async runAct(act: (a: OperatorAction) => Promise<string>, action: OperatorAction, live: () => boolean): Promise<void> {
    let line: string;
    try {
      line = await act(action);
    } catch (e) {
      line = `virtual terminal: ${action} failed (${e instanceof Error ? e.message : String(e)})`;
    }
    if (live()) this.println(fit(`  ${clean(line)}`));
  }

  /** The result against the expectation: as expected ends the step, anything else asks the operator. */
  private judge(info: StepInfo, final: string | undefined): Promise<StepVerdict> | StepVerdict {
    const ended = `ended ${final === undefined ? 'with no final status' : clean(final)}`;
    const done: StepVerdict = final !== undefined ? { kind: 'done', final } : { kind: 'done' };
    if (info.expected === undefined) {
      this.println(fit(`  ${ended}`));
      return done;
    }
    if (final === info.expected) {
      this.println(fit(`  ok: ${clean(final)}`));
      return done;
    }
    this.println(fit(`  ${ended}, expected ${clean(info.expected)}`));
    return this.askAboutResult({ ...done, kept: true });
  }

  /** r redo, Enter keep, s skip, a abort (asked first); Ctrl+C and the end of input abort at once. */
  private askAboutResult(kept: StepVerdict): Promise<StepVerdict> {
    const choices = '  r redo, Enter keep this result, s skip, a abort';
    this.println(choices);
    return new Promise((resolve) => {
      let asking = false;
      const finish = (verdict: StepVerdict, said: string) => {
        this.stopKeys();
        this.println(said);
        resolve(verdict);
      };
      this.listen((key) => {
        if (key === CTRL_C || key === EOF) return finish({ kind: 'abort' }, RECORDED[key === EOF ? 'eof' : 'abort']);
        if (asking) {
          asking = false;
          if (key === 'y') return finish({ kind: 'abort' }, RECORDED.abort);
          return this.println(`  not aborted;${choices.slice(1)}`);
        }
        if (key === 'r') finish({ kind: 'redo' }, RECORDED.redo);
        else if (key === 's') finish({ kind: 'skip' }, RECORDED.skip);
        else if (key === ENTER) finish(kept, '  kept this result');
        else if (key === 'a') {
          asking = true;
          this.println('  abort the session? y/N');
        }
      });
    });
  }

  /**
   * Reads keys for one prompt. What was typed before it is dropped (read out of the stream's buffer
   * unseen), so a key meant for one step never answers the next. A TTY is put in raw mode for the
   * prompt only and given back as it was. The end of input, or an error on it, is EOF.
   */
  private listen(onKey: (key: string) => void): void {
    this.stopKeys();
    const input = this.io.input;
    const state = input as { readableEnded?: boolean; destroyed?: boolean; isRaw?: boolean };
    const session: KeySession = { active: true, onKey, stop: () => {} };
    this.keys = session;
    if (this.closed || state.readableEnded || state.destroyed) {
      queueMicrotask(() => session.active && onKey(EOF));
      return;
    }
    input.pause();
    while (input.read() !== null) {
      /* typed before the prompt: dropped */
    }
    const tty = input.isTTY === true && typeof input.setRawMode === 'function';
    const wasRaw = state.isRaw === true;
    if (tty && !wasRaw) input.setRawMode!(true);
    const onData = (chunk: Buffer | string) => {
      for (const key of keysOf(String(chunk), input.isTTY === true)) {
        if (!session.active) return;
        onKey(key);
      }
    };
    const onEnd = () => session.active && onKey(EOF);
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('close', onEnd);
    input.on('error', onEnd);
    session.stop = () => {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.removeListener('close', onEnd);
      input.removeListener('error', onEnd);
      input.pause();
      if (tty && !wasRaw) input.setRawMode!(false);
    };
    input.resume();
  }

  private stopKeys(): void {
    const s = this.keys;
    if (!s) return;
    this.keys = undefined;
    s.active = false;
    s.stop();
  }

  /** A whole line, around the status line when one is shown. */
  private println(line: string): void {
    if (this.status) this.status.line(line);
    else this.write(`${line}\n`);
  }

  private write(s: string): void {
    this.io.output.write(s);
  }
}
