/**
 * The OTP book of sandbox#pairing: six digits, `000000` never valid, any other valid exactly once.
 * One byte per possible OTP (1 MB) keeps the state flat no matter how many pairings a run makes.
 */
import { ToolkitError } from '../core/errors.ts';
import type { Rng } from './rng.ts';

const FRESH = 0;
const MINTED = 1;
const USED = 2;
const SPACE = 1_000_000;

/** Why an OTP did not pair. */
export type OtpRejection = 'malformed' | 'never-valid' | 'consumed';

/** Tracks minted and consumed OTPs. */
export class OtpBook {
  private readonly state = new Uint8Array(SPACE);

  constructor(private readonly rng: Rng) {
    this.state[0] = USED; // 000000 is never valid
  }

  /** A valid OTP that was neither minted nor consumed before. */
  mint(): string {
    let n = 1 + this.rng.int(SPACE - 1);
    for (let tries = 0; this.state[n] !== FRESH; tries++) {
      if (tries >= SPACE) throw new ToolkitError('PCC_SIMULATOR', 'the simulator has no unused OTP left', 'restart the simulator');
      n = n + 1 >= SPACE ? 1 : n + 1;
    }
    this.state[n] = MINTED;
    return String(n).padStart(6, '0');
  }

  /**
   * Consumes `otp`, or says why it cannot pair. `allowReuse` is the `pair.otp-reuse` fault.
   * Nothing is consumed on rejection.
   */
  consume(otp: string, allowReuse = false): OtpRejection | null {
    if (!/^[0-9]{6}$/.test(otp)) return 'malformed';
    if (otp === '000000') return 'never-valid';
    const n = Number(otp);
    if (this.state[n] === USED && !allowReuse) return 'consumed';
    this.state[n] = USED;
    return null;
  }
}
