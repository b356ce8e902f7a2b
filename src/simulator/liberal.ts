/**
 * The liberal sandbox (the `liberal` option, `sim --liberal`): the liberties of liberties.ts, in one
 * object the rest of the simulator consults where it would otherwise do what the default does. Each
 * method names the liberty it takes. Draws come from a seeded stream of its own, so a liberal run is
 * reproducible from its seed and the default simulator's sequence of ids and OTPs is untouched.
 */
import { randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { LibertyId } from './liberties.ts';
import { Rng } from './rng.ts';

/** config.more-methods: the payment methods of the spec's enum it offers beside the default's (none carries card data). */
export const LIBERAL_EXTRA_METHODS = [
  { id: 'TWINT', name: 'TWINT', group: { id: 'mobile', name: 'Mobile wallets' } },
  { id: 'VALU', name: 'Valú', group: { id: 'vouchers', name: 'Vouchers' } },
] as const;

/** token.short-lifetime: the lifetime of its tokens, seconds (expires_in, and really so). */
export const LIBERAL_TOKEN_LIFETIME_SEC = 30;

/** limits.poll-rate: status reads a pairing is served a second before a 429 with Retry-After. */
export const LIBERAL_POLL_LIMIT = 6;

/** clock.offset: how far its clock runs ahead of the machine's. */
export const LIBERAL_CLOCK_SKEW_MS = 37_000;
/** keep-alive.unannounced-close: how long an idle connection is kept, without announcing it. */
export const LIBERAL_KEEP_ALIVE_MS = 1_500;
/** clock.local-time: the zone its timestamps are written in (the point of sale's, sandbox#configuration). */
export const LIBERAL_TIME_ZONE = 'Europe/Ljubljana';

/** The liberties a liberal simulator takes (all of them; named here so a call site says which one it uses). */
export type { LibertyId };

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** What kind of id to make (ids.own-format). */
export type LiberalIdKind = 'transaction' | 'operation' | 'pairing' | 'terminal' | 'client' | 'event';

/** The JSON answers the liberal sandbox dresses (records.extra-fields, records.optional-absent, config.own-values). */
type AnswerKind = 'pairing' | 'token' | 'config' | 'status' | 'slip' | 'operation' | 'created' | 'reference' | 'cancel' | 'other';

const PATTERNS: readonly (readonly [string, RegExp, AnswerKind])[] = [
  ['POST', /^\/v1\/pay-connect\/pair\/$/, 'pairing'],
  ['POST', /^\/v1\/auth\/token\/$/, 'token'],
  ['GET', /^\/v1\/pay-connect\/config\/$/, 'config'],
  ['GET', /^\/v1\/pay-connect\/transactions\/[^/]+\/status\/$/, 'status'],
  ['GET', /^\/v1\/pay-connect\/transactions\/[^/]+\/print-slip\/$/, 'slip'],
  ['GET', /^\/v1\/pay-connect\/transaction-operations\/[^/]+\/$/, 'operation'],
  ['POST', /^\/v1\/pay-connect\/transactions\/(generate|preauth|refund|[^/]+\/refund)\/$/, 'created'],
  ['POST', /^\/v1\/pay-connect\/transaction-operations\/[^/]+\/(preauth-increment|preauth-complete|revert)\/$/, 'reference'],
  ['POST', /^\/v1\/pay-connect\/transactions\/[^/]+\/cancel\/$/, 'cancel'],
];

function kindOf(method: string | undefined, path: string | null): AnswerKind {
  if (path === null) return 'other';
  for (const [m, re, kind] of PATTERNS) if (m === method && re.test(path)) return kind;
  return 'other';
}

/** The card fields, present only for approved card payments (records.optional-absent). */
const CARD_FIELDS = ['card_tid', 'card_number', 'aid', 'approve_code', 'card_type'] as const;
/** The print slip's optional fields left out when null (records.optional-absent). */
const SLIP_OPTIONAL = [...CARD_FIELDS, 'completed_at', 'canceled_at', 'reverted_at', 'refund_total_amount'] as const;

/** json.unicode-escapes: a JSON string with every non-ASCII character and "/" escaped. */
function escapedString(s: string): string {
  return JSON.stringify(s)
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');
}

/** The offset of `zone` at `ms`, in minutes east of UTC. */
function zoneOffsetMin(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** clock.local-time: ISO 8601 in `zone`'s local time with its offset and milliseconds. */
export function localStamp(ms: number, zone = LIBERAL_TIME_ZONE): string {
  const off = zoneOffsetMin(ms, zone);
  const local = new Date(ms + off * 60_000).toISOString().slice(0, 23);
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  return `${local}${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/** The liberal mode of one simulator. */
export class Liberal {
  private readonly rng: Rng;
  private answers = 0;
  private requests = 0;
  private closing = 0;
  private racedCancels = 0;
  private deliveries = 0;

  constructor(seed: number) {
    this.rng = new Rng((seed ^ 0x1b873593) >>> 0);
  }

  /** clock.offset: the service's time. */
  now(): number {
    return Date.now() + LIBERAL_CLOCK_SKEW_MS;
  }

  /** clock.local-time. */
  stamp(ms: number): string {
    return localStamp(ms);
  }

  /** ids.own-format. */
  id(kind: LiberalIdKind): string {
    const b32 = (n: number) => Array.from({ length: n }, () => BASE32[this.rng.int(32)]).join('');
    switch (kind) {
      case 'transaction':
        return `tx:${b32(26)}`;
      case 'operation':
        return `op-${b32(20)}`;
      case 'pairing':
        return `pc_${this.rng.digits(12)}`;
      case 'terminal':
        return `TRM-${this.rng.digits(6)}`;
      case 'client':
        return `cli.${this.rng.u32().toString(16).padStart(8, '0')}${this.rng.u32().toString(16).padStart(8, '0')}`;
      case 'event':
        return `evt_${b32(24)}`;
    }
  }

  /** credentials.own-format: an access token with b64token's characters (never from the seeded stream). */
  accessToken(): string {
    const b64 = randomBytes(33).toString('base64'); // 44 characters, "+" and "/" among them
    return `lib.${b64.slice(0, 20)}~${b64.slice(20)}=`;
  }

  /** credentials.own-format: a client secret with punctuation. */
  clientSecret(): string {
    return `${randomBytes(24).toString('base64url')}!$*(){}`;
  }

  /** credentials.own-format: a webhook key with non-ASCII letters, keyed as UTF-8. */
  webhookSecret(): string {
    return `ključ-${randomBytes(24).toString('hex')}-žž`;
  }

  /** terminal.jittered-steps: a step's delay, from half to all of `ms`. */
  stepMs(ms: number): number {
    return ms <= 1 ? ms : Math.round(ms / 2 + this.rng.int(Math.floor(ms / 2) + 1));
  }

  /** cancel.race-success: every second approving payment canceled while IN_PROGRESS completes. */
  cancelRacesToSuccess(): boolean {
    return this.racedCancels++ % 2 === 0;
  }

  /** timing.slow-answers: how long to hold an answer. */
  delayMs(method: string | undefined, path: string | null, status: number): number {
    const kind = kindOf(method, path);
    const span = (lo: number, hi: number) => lo + this.rng.int(hi - lo + 1);
    if (status >= 300) return span(0, 60);
    switch (kind) {
      case 'pairing':
        return span(800, 1_300);
      case 'token':
      case 'config':
      case 'slip':
        return span(100, 300);
      case 'created':
      case 'reference':
        return span(50, 250);
      default:
        return span(0, 60);
    }
  }

  /** headers.extra (and errors.www-authenticate-params on a 401). */
  headers(status: number): Record<string, string> {
    const h: Record<string, string> = {
      'x-request-id': `req-${(++this.requests).toString(36)}-${this.rng.digits(6)}`,
      server: 'pay-connect-liberal/1.0',
      vary: 'Accept-Encoding',
    };
    if (status === 401) h['www-authenticate'] = 'Bearer realm="pay-connect", error="invalid_token"';
    return h;
  }

  /** keep-alive.close-some: whether this answer closes its connection (Connection: close on every fifth). */
  closesConnection(): boolean {
    return ++this.closing % 5 === 0;
  }

  /** http.chunked-answers: whether this answer announces its length (every other one is sent chunked). */
  announcesLength(): boolean {
    return this.answers % 2 === 0;
  }

  /** headers.extra: the content type of a JSON answer. */
  readonly contentType = 'application/json; charset=utf-8';

  /** errors.extra-fields: an error body beside its detail. */
  errorBody(status: number, detail: string): Record<string, unknown> {
    return { detail, title: STATUS_CODES[status] ?? 'Error', status, code: `PC-${status}`, request_id: `req-${this.rng.digits(10)}` };
  }

  /** records.extra-fields, records.optional-absent, config.own-values: an answer as the liberal sandbox dresses it. */
  dress(method: string | undefined, path: string | null, body: unknown): unknown {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
    const b = { ...(body as Record<string, unknown>) };
    switch (kindOf(method, path)) {
      case 'pairing':
        return { ...b, paired_at: this.stamp(this.now()) };
      case 'token':
        return { ...b, issued_at: this.stamp(this.now()) };
      case 'config':
        return this.config(b);
      case 'status':
        return this.transactionRecord(b);
      case 'slip':
        return this.slip(b);
      case 'operation':
        return this.operationRecord(b);
      case 'created':
        return { ...b, object: 'transaction' };
      case 'reference':
        return { ...b, object: 'operation_reference' };
      case 'cancel': {
        const id = /\/transactions\/([^/]+)\/cancel\/$/.exec(path ?? '')?.[1];
        return { ...b, ...(id ? { transaction_id: decodeURIComponent(id) } : {}), cancel_requested: true };
      }
      default:
        return b;
    }
  }

  /** The status record (and the data of a transaction webhook): records.extra-fields, records.optional-absent. */
  transactionRecord(record: Record<string, unknown>): Record<string, unknown> {
    const r: Record<string, unknown> = { ...record, object: 'transaction' };
    for (const k of CARD_FIELDS) if (r[k] === null) delete r[k];
    return r;
  }

  /** The operation record (and the data of an operation webhook): records.extra-fields, metadata with a currency beside its amount. */
  operationRecord(record: Record<string, unknown>): Record<string, unknown> {
    const m = record.metadata;
    const metadata =
      m !== null && typeof m === 'object' && !Array.isArray(m) ? { metadata: { ...(m as Record<string, unknown>), currency: 'EUR' } } : {};
    return { ...record, ...metadata, object: 'operation' };
  }

  private slip(b: Record<string, unknown>): Record<string, unknown> {
    for (const k of SLIP_OPTIONAL) if (b[k] === null) delete b[k];
    const slipUrl = `https://receipts.liberal.example/slips/${encodeURIComponent(String(b.transaction_id))}?format=pdf&sig=${this.rng.digits(12)}`;
    return { ...b, digital_slip: slipUrl, receipt_number: `R-${this.rng.digits(8)}` };
  }

  private config(b: Record<string, unknown>): Record<string, unknown> {
    const methods = Array.isArray(b.payment_methods)
      ? [...(b.payment_methods as Record<string, unknown>[]), ...LIBERAL_EXTRA_METHODS]
      : null;
    return {
      ...b,
      version: '2026.11-liberal',
      default_language: 'sl-SI',
      ...(methods
        ? {
            payment_methods: methods.map((m) => ({
              ...m,
              group: { id: `grp-${String(m.id).toLowerCase()}`, name: `Skupina ${String(m.name)}` },
            })),
          }
        : {}),
    };
  }

  /**
   * json.key-order, json.whitespace, json.unicode-escapes, json.number-forms: an answer's JSON text,
   * the same value as JSON.stringify's, other bytes.
   */
  json(value: unknown): string {
    const rotate = this.answers++;
    const write = (v: unknown, depth: number): string => {
      const pad = '  '.repeat(depth + 1);
      const end = '  '.repeat(depth);
      if (typeof v === 'string') return escapedString(v);
      if (typeof v === 'number') return Number.isInteger(v) ? `${v}.0` : JSON.stringify(v);
      if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
      if (Array.isArray(v)) return v.length === 0 ? '[]' : `[\n${v.map((x) => pad + write(x, depth + 1)).join(',\n')}\n${end}]`;
      const keys = Object.keys(v)
        .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
        .reverse();
      if (keys.length === 0) return '{}';
      const r = rotate % keys.length;
      const order = [...keys.slice(r), ...keys.slice(0, r)];
      return `{\n${order.map((k) => `${pad}${escapedString(k)}: ${write((v as Record<string, unknown>)[k], depth + 1)}`).join(',\n')}\n${end}}`;
    };
    return `${write(value, 0)}\n`;
  }

  /** webhook.own-bytes: sorted keys at every level, ", " and ": " separators, escaped non-ASCII. */
  webhookJson(value: unknown): string {
    if (typeof value === 'string') return escapedString(value);
    if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
    if (Array.isArray(value)) return `[${value.map((x) => this.webhookJson(x)).join(', ')}]`;
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${escapedString(k)}: ${this.webhookJson(o[k])}`)
      .join(', ')}}`;
  }

  /** webhook.duplicates: how many copies of a delivery to send (2 about one time in three). */
  copies(): number {
    return this.rng.int(3) === 0 ? 2 : 1;
  }

  /** webhook.late, webhook.out-of-order: how long a delivery waits before it is queued. */
  deliveryDelayMs(): number {
    return 150 + this.rng.int(1_351);
  }

  /** webhook.extra-headers. */
  deliveryHeaders(): Record<string, string> {
    return {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'PayConnect-Webhooks/2.1 (liberal sandbox)',
      'x-pay-connect-delivery': `dlv-${++this.deliveries}`,
    };
  }
}
