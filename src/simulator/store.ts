/**
 * Pairings and their tokens. Memory stays bounded: at most MAX_TOKENS_PER_PAIRING live tokens per
 * pairing (the oldest is dropped), expired tokens are removed when seen, and an unpaired pairing is
 * forgotten entirely (its terminal's timers cleared).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Merchant } from './model.ts';
import type { Rng } from './rng.ts';
import type { VirtualTerminal } from './virtual-terminal.ts';

/** Live tokens kept per pairing; a client asking for more loses its oldest. */
export const MAX_TOKENS_PER_PAIRING = 64;

/** One pairing: the credentials of one integration with one virtual terminal. */
export interface Pairing {
  readonly id: string;
  readonly name: string;
  readonly integratorId: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly webhookUrl: string | null;
  readonly webhookSecret: string | null;
  readonly terminal: VirtualTerminal;
  readonly tokens: string[];
  revoked: boolean;
}

interface TokenEntry {
  readonly pairing: Pairing;
  readonly expiresAt: number;
}

/** How many handed-out secrets the registry remembers for issuedSecrets(). */
export const MAX_REMEMBERED_SECRETS = 10_000;

/** A random secret from node:crypto (never from the seeded PRNG). */
export function secret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

const CITIES = [
  { city: 'Ljubljana', postal_code: '1000', address: 'Slovenska cesta 1', region: 'Osrednjeslovenska' },
  { city: 'Maribor', postal_code: '2000', address: 'Glavni trg 14', region: 'Podravska' },
  { city: 'Koper', postal_code: '6000', address: 'Pristaniška ulica 3', region: null },
] as const;

/** The merchant printed on a terminal's slips, chosen from the seed. */
export function makeMerchant(rng: Rng): Merchant {
  const c = rng.pick(CITIES);
  const n = rng.digits(3);
  return {
    organization: {
      full_name: `Sandbox Merchant ${n} d.o.o.`,
      country: 'SI',
      address: c.address,
      postal_code: c.postal_code,
      city: c.city,
      region: c.region,
    },
    point_of_sale: { full_name: `Sandbox Shop ${c.city} ${n}` },
  };
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** All pairings, indexed by client id, token and integrator. */
export class Registry {
  private readonly byClient = new Map<string, Pairing>();
  private readonly tokens = new Map<string, TokenEntry>();
  private readonly latest = new Map<string, Pairing>();
  /** Pairings whose terminal is alive (not yet disposed). */
  private readonly live = new Set<Pairing>();

  /** The most recent secrets handed out (client secrets, webhook keys, tokens), for leak tests. */
  private readonly handedOut: string[] = [];

  /** `makeToken`: how access tokens are made (the liberal sandbox's own form); random base64url by default. */
  constructor(
    private readonly now: () => number,
    private readonly makeToken: () => string = () => secret(),
  ) {}

  private remember(...values: (string | null)[]): void {
    for (const v of values) if (v) this.handedOut.push(v);
    if (this.handedOut.length > MAX_REMEMBERED_SECRETS) this.handedOut.splice(0, this.handedOut.length - MAX_REMEMBERED_SECRETS);
  }

  /** The most recent secrets handed out, newest last (at most MAX_REMEMBERED_SECRETS). */
  issuedSecrets(): readonly string[] {
    return [...this.handedOut];
  }

  add(p: Pairing): void {
    this.remember(p.clientSecret, p.webhookSecret);
    this.byClient.set(p.clientId, p);
    this.live.add(p);
    this.latest.set(p.integratorId, p);
  }

  /**
   * Issues a token for valid, unrevoked credentials; null otherwise. `anySecret` is the
   * `auth.any-secret-accepted` fault. Credentials kept by `auth.credentials-survive-unpair` get a
   * token that is never stored, so it answers 401 like any revoked one.
   */
  issueToken(clientId: string, clientSecret: string, lifetimeSec: number, anySecret = false): { token: string; pairing: Pairing } | null {
    const p = this.byClient.get(clientId);
    if (!p || (!anySecret && !sameSecret(p.clientSecret, clientSecret))) return null;
    const token = this.makeToken();
    this.remember(token);
    if (p.revoked) return { token, pairing: p };
    this.tokens.set(token, { pairing: p, expiresAt: this.now() + lifetimeSec * 1000 });
    p.tokens.push(token);
    if (p.tokens.length > MAX_TOKENS_PER_PAIRING) this.tokens.delete(p.tokens.shift() as string);
    return { token, pairing: p };
  }

  /** The pairing of a live token, or null (expired tokens are dropped here). */
  pairingOf(token: string): Pairing | null {
    const e = this.tokens.get(token);
    if (!e) return null;
    if (e.expiresAt <= this.now()) {
      this.tokens.delete(token);
      return null;
    }
    return e.pairing;
  }

  /** The integrator's most recent live pairing (used only by the auth fault switches). */
  latestOf(integratorId: string): Pairing | null {
    const p = this.latest.get(integratorId);
    return p && !p.revoked ? p : null;
  }

  /**
   * Revokes a pairing: its credentials stop working at once. With `keepTokens` (the
   * `auth.unpair-not-revoking` fault) its tokens and terminal stay alive; with `keepCredentials`
   * (`auth.credentials-survive-unpair`) its client credentials still obtain (dead) tokens.
   */
  unpair(p: Pairing, keep: { keepTokens?: boolean; keepCredentials?: boolean } = {}): void {
    p.revoked = true;
    if (!keep.keepCredentials) this.byClient.delete(p.clientId);
    if (keep.keepTokens) return;
    for (const t of p.tokens) this.tokens.delete(t);
    p.tokens.length = 0;
    if (this.latest.get(p.integratorId) === p) this.latest.delete(p.integratorId);
    this.live.delete(p);
    p.terminal.dispose();
  }

  /** Every pairing still reachable (for the `isolation.leak` fault and for shutdown). */
  all(): Iterable<Pairing> {
    return this.live.values();
  }

  /** Clears every terminal's timers. */
  disposeAll(): void {
    for (const p of this.all()) p.terminal.dispose();
  }
}
