import { randomInt } from 'node:crypto';

/** Which of the run's workers this source serves: its index (from 0) among `count`. */
export interface WorkerShare {
  index: number;
  count: number;
}

/**
 * Where OTPs for new pairings come from: the user's `--otp` values first, in order, then (only where
 * sandbox.md applies) minted ones: any six digits but 000000 pair once. With several workers, each
 * takes its share: every `count`-th given OTP, and minted ones equal to its index modulo `count`, so
 * two workers never spend the same OTP.
 */
export class OtpSource {
  private readonly given: string[];
  private readonly used = new Set<string>();
  private readonly mintedHere = new Set<string>();
  private readonly share: WorkerShare;
  constructor(
    given: readonly string[],
    private readonly mint: boolean,
    share: WorkerShare = { index: 0, count: 1 },
  ) {
    this.share = share;
    this.given = given.filter((_, i) => i % share.count === share.index);
  }

  /** The next OTP, or undefined when none is left. */
  next(): string | undefined {
    const g = this.given.shift();
    if (g !== undefined) return g;
    if (!this.mint) return undefined;
    for (;;) {
      const n = randomInt(1, 1_000_000);
      const mine = n - (n % this.share.count) + this.share.index;
      if (mine < 1 || mine > 999_999) continue;
      const otp = String(mine).padStart(6, '0');
      if (!this.used.has(otp)) {
        this.used.add(otp);
        this.mintedHere.add(otp);
        return otp;
      }
    }
  }

  /** Whether another OTP can be had. */
  available(): boolean {
    return this.given.length > 0 || this.mint;
  }

  /** Whether `otp` was minted here (sandbox.md says it pairs), not given by the user (who may have mistyped it). */
  minted(otp: string): boolean {
    return this.mintedHere.has(otp);
  }

  /** Marks an OTP consumed (the pairing probes reuse one on purpose). */
  consumed(otp: string): void {
    this.used.add(otp);
  }
}
