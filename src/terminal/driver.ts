/**
 * How the harness gets the terminal to do something. `auto` drives a sandbox's virtual terminal by the
 * amount (sandbox.md's outcome table); `manual` asks a person at a real terminal; `observe` lets the
 * terminal do whatever it does and expects nothing of the outcome.
 */
import { openSync, readSync, writeSync, closeSync } from 'node:fs';
import { type Profile, expectedOutcome } from '../profile/index.ts';

/** What a scenario wants the terminal to do. */
export type Outcome = 'approve' | 'decline' | 'fail' | 'expire' | 'wait-in-progress' | 'offline' | 'refuse-cancel' | 'tip';

const SUFFIX: Record<Outcome, number> = { approve: 0, decline: 51, fail: 52, expire: 53, 'wait-in-progress': 54, offline: 55, 'refuse-cancel': 56, tip: 57 };

const INSTRUCTIONS: Record<Outcome, string> = {
  approve: 'present a card that will be approved',
  decline: 'present a card that will be declined',
  fail: 'make the terminal report a processing error (e.g. remove the card mid-transaction)',
  expire: 'do not present any card; let the transaction time out',
  'wait-in-progress': 'start the card prompt but do not present a card until told',
  offline: 'take the terminal offline (disconnect its network) until told',
  'refuse-cancel': 'when asked to cancel on the terminal, refuse and complete the payment with an approved card',
  tip: 'add a tip of 1.00 on the terminal, then present a card that will be approved',
};

/** A planned payment: the amount to send, what to expect, and what to tell the operator. */
export interface Plan {
  amount: number;
  /** Expected final status and tip; absent in observe mode. */
  expect?: { final: string; tip: number };
  /** Shown to the operator in manual mode. */
  instruction?: string;
}

export interface TerminalDriver {
  readonly mode: 'auto' | 'manual' | 'observe';
  /** A plan for `want`, or a skip reason. `base` spreads amounts so runs differ by seed. */
  plan(want: Outcome, base?: number): Plan | string;
  /** Tells the operator something and waits for Enter (manual); no-op otherwise. */
  instruct(text: string): Promise<void>;
}

export interface DriverOptions {
  mode: 'auto' | 'manual' | 'observe';
  profile: Profile;
  /** Amounts above this are not sent to a target that is not a sandbox. */
  maxAmount: number;
  sandbox: boolean;
  interactive: boolean;
}

/** Writes to and reads a line from the controlling terminal (works inside test workers). */
function askTty(text: string): void {
  const fd = openSync('/dev/tty', 'r+');
  try {
    writeSync(fd, `\n[payconnect-conformance] ${text}\n  press Enter when done... `);
    const buf = Buffer.alloc(1);
    while (readSync(fd, buf, 0, 1, null) === 1 && buf[0] !== 10);
  } finally {
    closeSync(fd);
  }
}

export function createTerminalDriver(o: DriverOptions): TerminalDriver {
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
      const final = want === 'decline' ? 'DECLINED' : want === 'fail' ? 'FAILED' : want === 'expire' ? 'EXPIRED' : want === 'approve' || want === 'tip' || want === 'refuse-cancel' ? 'SUCCESS' : 'EXPIRED';
      return { amount, expect: want === 'tip' ? undefined : { final, tip: 0 }, instruction: INSTRUCTIONS[want] };
    },
    async instruct(text) {
      if (o.mode !== 'manual' || !o.interactive) return;
      askTty(text);
    },
  };
}
