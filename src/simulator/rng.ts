/**
 * Seeded PRNG (xoshiro128**, seeded through splitmix32). Ids, OTPs, card details and jitter come from
 * it so a run is reproducible from its seed; secrets never do (they use node:crypto).
 * 128 bits of state matter: UUIDs drawn from a 32-bit generator would collide within 100k ids.
 */

/** A small deterministic random source. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const split = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = split();
    this.b = split();
    this.c = split();
    this.d = split() | 1; // never the all-zero state
  }

  /** A uniform unsigned 32-bit integer. */
  u32(): number {
    const rotl = (x: number, k: number) => (x << k) | (x >>> (32 - k));
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** A uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor((this.u32() / 0x1_0000_0000) * n);
  }

  /** A uniformly chosen element. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** `n` decimal digits. */
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(10));
    return s;
  }

  /** A version-4-shaped UUID. */
  uuid(): string {
    const h = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
    const a = h(this.u32());
    const b = h((this.u32() & 0xffff0fff) | 0x4000);
    const c = h((this.u32() & 0x3fffffff) | 0x80000000);
    const d = h(this.u32());
    return `${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
  }
}
