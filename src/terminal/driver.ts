/**
 * How the harness gets the terminal to do something. `auto` drives a sandbox's virtual terminal by the
 * amount (sandbox.md's outcome table); `manual` asks a person at a real terminal; `observe` lets the
 * terminal do whatever it does and expects nothing of the outcome.
 */
import { closeSync, openSync } from 'node:fs';
import { ReadStream, WriteStream } from 'node:tty';
import { type Profile, expectedOutcome } from '../profile/index.ts';
import { type ConsoleIo, type OperatorAction, OperatorConsole, type StepVerdict } from './operator-console.ts';
import { operatorInstruction } from './session-plan.ts';

/** What a scenario wants the terminal to do. */
export type Outcome = 'approve' | 'decline' | 'fail' | 'expire' | 'wait-in-progress' | 'offline' | 'refuse-cancel' | 'tip';

const SUFFIX: Record<Outcome, number> = {
  approve: 0,
  decline: 51,
  fail: 52,
  expire: 53,
  'wait-in-progress': 54,
  offline: 55,
  'refuse-cancel': 56,
  tip: 57,
};

/** A planned payment: the amount to send, what to expect, and what to tell the operator. */
export interface Plan {
  amount: number;
  /** Expected final status and tip; absent in observe mode. */
  expect?: { final: string; tip: number };
  /** Shown to the operator in manual mode. */
  instruction?: string;
}

/** One step a person does at the terminal while the harness watches. */
export interface AttendStep {
  /** The test, as the reports name it. */
  test: string;
  instruction: string;
  /** The final status the scenario expects, if it expects one. */
  expected?: string;
  /** The terminal the step runs on (the simulator's manual terminal is acted on by id). */
  terminalId?: string;
}

/** Watches the terminal: `status` shows progress, `stop` asks to end the wait (the operator acted). */
export type AttendWatch = (status: (text: string) => void, stop: AbortSignal) => Promise<{ final?: string }>;

export interface TerminalDriver {
  readonly mode: 'auto' | 'manual' | 'observe';
  /** A plan for `want`, or a skip reason. `base` spreads amounts so runs differ by seed. */
  plan(want: Outcome, base?: number): Plan | string;
  /**
   * Manual mode: tells the operator what to do, shows the status as `watch` converges, and takes
   * their keys (skip, redo, abort). Other modes: runs `watch` and reports what it saw.
   */
  attend(step: AttendStep, watch: AttendWatch): Promise<StepVerdict>;
}

export interface DriverOptions {
  mode: 'auto' | 'manual' | 'observe';
  profile: Profile;
  /** Amounts above this are not sent to a target that is not a sandbox. */
  maxAmount: number;
  sandbox: boolean;
  interactive: boolean;
  /** The target's base URL: a simulator's manual terminal is driven through its control endpoint. */
  baseUrl?: string;
  /** A manual session's steps, by test name in run order (numbers what the operator sees). */
  steps?: readonly string[];
  /** The operator's console (tests); else the controlling terminal, opened for each step. */
  console?: (act?: (a: OperatorAction) => Promise<string>) => { console: OperatorConsole; close(): void };
}

/** The controlling terminal as the operator's console: works inside test workers, whose stdin is not it. */
function ttyConsole(act?: (a: OperatorAction) => Promise<string>): { console: OperatorConsole; close(): void } {
  const rfd = openSync('/dev/tty', 'r');
  const wfd = openSync('/dev/tty', 'w');
  const io: ConsoleIo = { input: new ReadStream(rfd), output: new WriteStream(wfd) };
  const c = new OperatorConsole(io, act ? { act } : {});
  return {
    console: c,
    close: () => {
      c.close();
      (io.input as ReadStream).destroy();
      (io.output as WriteStream).destroy();
      for (const fd of [rfd, wfd]) {
        try {
          closeSync(fd);
        } catch {
          /* closed with its stream */
        }
      }
    },
  };
}

/**
 * Whether the target is a simulator with a manual virtual terminal (`sim --terminal manual`): then the
 * operator's console also offers its actions as keys. Asked once, of sandboxes only.
 */
async function simulatorManual(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/_sim/terminals`, { signal: AbortSignal.timeout(2000) });
    return res.ok && ((await res.json()) as { mode?: unknown }).mode === 'manual';
  } catch {
    return false;
  }
}

/** Acts on a simulator's manual terminal; the line says what happened (never throws). */
async function simulatorAct(baseUrl: string, terminalId: string, action: OperatorAction): Promise<string> {
  try {
    const res = await fetch(`${baseUrl}/_sim/terminals/${encodeURIComponent(terminalId)}/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action }),
      signal: AbortSignal.timeout(5000),
    });
    const body = (await res.json().catch(() => ({}))) as { status?: string; detail?: string };
    return res.ok
      ? `virtual terminal: ${action}, transaction ${body.status ?? ''}`.trim()
      : `virtual terminal: ${action} refused (${res.status}${body.detail ? `: ${body.detail}` : ''})`;
  } catch (e) {
    return `virtual terminal: ${action} failed (${(e as Error).message})`;
  }
}

export function createTerminalDriver(o: DriverOptions): TerminalDriver {
  let simManual: Promise<boolean> | undefined;
  let unplanned = 0;
  const seen = new Map<string, number>();
  const cap = (amount: number) => (o.sandbox ? amount : Math.min(amount, o.maxAmount));
  return {
    mode: o.mode,
    plan(want, base = 1000) {
      if (o.mode === 'auto') {
        if (!o.sandbox) return 'auto mode drives outcomes by amount, which only a sandbox follows (use --terminal observe or manual)';
        const amount = Math.floor(base / 100) * 100 + SUFFIX[want];
        return { amount, expect: expectedOutcome(o.profile, amount) };
      }
      if (o.mode === 'observe') return { amount: cap(base % 100 === 0 ? base : base - (base % 100) || 100) };
      if (!o.interactive) return 'manual mode needs a person at a terminal, and stdin is not a TTY';
      const amount = cap(100);
      const final =
        want === 'decline'
          ? 'DECLINED'
          : want === 'fail'
            ? 'FAILED'
            : want === 'expire'
              ? 'EXPIRED'
              : want === 'approve' || want === 'tip' || want === 'refuse-cancel'
                ? 'SUCCESS'
                : 'EXPIRED';
      return { amount, expect: want === 'tip' ? undefined : { final, tip: 0 }, instruction: operatorInstruction(want) };
    },
    async attend(step, watch) {
      if (o.mode !== 'manual' || !o.interactive) {
        const result = await watch(() => {}, new AbortController().signal);
        return { kind: 'done', ...(result.final !== undefined ? { final: result.final } : {}) };
      }
      simManual ??= o.sandbox && o.baseUrl ? simulatorManual(o.baseUrl) : Promise.resolve(false);
      const act =
        (await simManual) && step.terminalId !== undefined && o.baseUrl !== undefined
          ? (a: OperatorAction) => simulatorAct(o.baseUrl!, step.terminalId!, a)
          : undefined;
      const opened = (o.console ?? ttyConsole)(act);
      try {
        // A test with several steps has as many places in the plan: the n-th step takes the n-th.
        const nth = (seen.get(step.test) ?? 0) + 1;
        seen.set(step.test, nth);
        const planned = (o.steps ?? []).map((name, i) => (name === step.test ? i + 1 : 0)).filter((i) => i > 0)[nth - 1] ?? 0;
        const index = planned > 0 ? planned : (o.steps?.length ?? 0) + ++unplanned;
        const verdict = await opened.console.step(
          {
            index,
            total: Math.max(o.steps?.length ?? 0, index),
            test: step.test,
            instruction: step.instruction,
            ...(step.expected ? { expected: step.expected } : {}),
          },
          watch,
        );
        // A redo runs the scenario again from its first step.
        if (verdict.kind === 'redo') seen.delete(step.test);
        return verdict;
      } finally {
        opened.close();
      }
    },
  };
}
