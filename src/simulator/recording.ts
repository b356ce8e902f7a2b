/**
 * The simulator's recording of what a client did (the `record` option, `sim --record FILE`): one
 * entry per request (method, path, headers, body, answer, timing) and per webhook delivery attempt
 * (genuine or forged, and what the receiver answered). Everything is redacted before it leaves:
 * client secrets and webhook keys become `[REDACTED]`, each access token a stable alias `[token-N]`
 * (so reuse can be judged without the token), and any other string holding a secret the simulator
 * handed out is scrubbed too.
 */
import { appendFileSync, openSync, closeSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';

/** What a secret field's value is replaced with. */
export const REDACTED = '[REDACTED]';

/** JSON fields whose values are secret wherever they appear. */
const SECRET_FIELDS = new Set(['client_secret', 'webhook_secret_key', 'access_token']);

/** Bodies and texts longer than this are cut in the recording. */
const MAX_TEXT = 4096;

/** The first line of a recording: which simulator, when. */
export interface RecordedStart {
  readonly type: 'start';
  readonly at: string;
  readonly url: string;
  readonly seed: number;
  readonly tokenLifetimeSec: number;
}

/** One request the simulator answered. */
export interface RecordedRequest {
  readonly type: 'request';
  readonly seq: number;
  /** When the request arrived, ISO 8601. */
  readonly at: string;
  /** When the request arrived, ms since the recording started. */
  readonly t: number;
  readonly method: string;
  /** The path without query (null when the request target was not a path). */
  readonly path: string | null;
  /** The query string without `?`, when there was one. */
  readonly query?: string;
  /** Header names lower-cased; Authorization as `Bearer [token-N]` (or `[REDACTED]`). */
  readonly headers: Record<string, string>;
  /** The parsed JSON body (redacted); absent when there was none or it was not JSON. */
  readonly body?: unknown;
  /** The body as text when it was not JSON (redacted, cut). */
  readonly bodyText?: string;
  /** The bearer token's alias (`token-1`...), `unknown` for a token the simulator never issued. */
  readonly token?: string;
  readonly status: number;
  /** The JSON answer (redacted); absent when the answer had no body. */
  readonly response?: unknown;
  readonly durationMs: number;
}

/** One delivery attempt of a webhook to a client's endpoint. */
export interface RecordedDelivery {
  readonly type: 'delivery';
  readonly seq: number;
  readonly at: string;
  readonly t: number;
  readonly url: string;
  readonly event: string;
  readonly eventId: string | null;
  /** The transaction or operation the event is about, and its status (from the event's data). */
  readonly transactionId: string | null;
  readonly operationId: string | null;
  readonly status: string | null;
  /** 0 for the first attempt, then 1..5 for retries. */
  readonly attempt: number;
  /** A delivery signed with a wrong key on purpose: a receiver must refuse it. */
  readonly forged: boolean;
  /** The receiver's answer, or null when there was none (connection refused, reset, timeout). */
  readonly answer: number | null;
  readonly error?: string;
  readonly durationMs: number;
}

/** One line of a recording. */
export type SimRecordEntry = RecordedStart | RecordedRequest | RecordedDelivery;

/** What a finished delivery attempt reports (webhooks.ts). */
export interface DeliveryAttempt {
  readonly url: string;
  readonly payload: { event?: unknown; event_id?: unknown; data?: unknown };
  readonly attempt: number;
  readonly forged: boolean;
  /** performance.now() when the attempt started. */
  readonly startedAt: number;
  readonly answer: number | null;
  readonly error?: string;
  readonly durationMs: number;
}

/** What the server hands the recorder about one answered request. */
export interface AnsweredRequest {
  readonly req: IncomingMessage;
  readonly path: string | null;
  readonly raw: Buffer | null;
  readonly status: number;
  /** The answer's JSON text, when it had one. */
  readonly answerJson: string | undefined;
  /** performance.now() when the request arrived and when it was answered. */
  readonly started: number;
  readonly ended: number;
}

const cut = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}...` : s);

/** Turns answered requests and delivery attempts into redacted entries. */
export class SimRecorder {
  private seq = 0;
  private readonly aliases = new Map<string, string>();
  private readonly t0 = performance.now();
  private readonly epoch0 = Date.now();

  /**
   * @param sink - receives every entry
   * @param secrets - the secrets handed out so far (scrubbed from every string)
   */
  constructor(
    private readonly sink: (e: SimRecordEntry) => void,
    private readonly secrets: () => readonly string[],
  ) {}

  start(info: Omit<RecordedStart, 'type' | 'at'>): void {
    this.emit({ type: 'start', at: new Date(this.epoch0).toISOString(), ...info });
  }

  private emit(e: SimRecordEntry): void {
    try {
      this.sink(e);
    } catch {
      // A full disk must not take the simulator down: the recording is the client's evidence, not the service.
    }
  }

  private alias(token: string): string {
    let a = this.aliases.get(token);
    if (!a) {
      a = `token-${this.aliases.size + 1}`;
      this.aliases.set(token, a);
    }
    return a;
  }

  /** The secrets handed out, read once per entry. */
  private known: readonly string[] = [];

  /** `s` with every known secret replaced. */
  private scrub(s: string): string {
    let out = s;
    for (const secret of this.known) {
      if (secret.length >= 8 && out.includes(secret))
        out = out.split(secret).join(this.aliases.has(secret) ? `[${this.aliases.get(secret)}]` : REDACTED);
    }
    return out;
  }

  private redact(value: unknown, key?: string): unknown {
    if (typeof value === 'string') {
      if (key === 'access_token') return `[${this.alias(value)}]`;
      if (key !== undefined && SECRET_FIELDS.has(key)) return REDACTED;
      return this.scrub(cut(value));
    }
    if (Array.isArray(value)) return value.map((v) => this.redact(v));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.redact(v, k);
      return out;
    }
    return value;
  }

  /** Records one answered request. */
  request(a: AnsweredRequest): void {
    this.known = this.secrets();
    const headers: Record<string, string> = {};
    let token: string | undefined;
    for (const [k, v] of Object.entries(a.req.headers)) {
      const value = Array.isArray(v) ? v.join(', ') : String(v ?? '');
      if (k === 'authorization') {
        const m = /^Bearer +(\S+) *$/i.exec(value);
        if (m) {
          token = this.aliases.get(m[1]!) ?? 'unknown';
          headers[k] = `Bearer [${token}]`;
        } else headers[k] = REDACTED;
      } else headers[k] = this.scrub(cut(value));
    }
    let body: unknown;
    let bodyText: string | undefined;
    if (a.raw && a.raw.length > 0) {
      const text = a.raw.toString('utf8');
      try {
        body = this.redact(JSON.parse(text));
      } catch {
        bodyText = this.scrub(cut(text));
      }
    }
    let response: unknown;
    if (a.answerJson !== undefined) {
      try {
        response = this.redact(JSON.parse(a.answerJson)); // learns the alias of an issued token first
      } catch {
        response = this.scrub(cut(a.answerJson));
      }
    }
    const url = a.req.url ?? '';
    const q = url.indexOf('?');
    this.emit({
      type: 'request',
      seq: ++this.seq,
      at: new Date(this.epoch0 + (a.started - this.t0)).toISOString(),
      t: Math.round(a.started - this.t0),
      method: a.req.method ?? '',
      path: a.path === null ? null : this.scrub(a.path),
      ...(q >= 0 ? { query: this.scrub(cut(url.slice(q + 1))) } : {}),
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(bodyText !== undefined ? { bodyText } : {}),
      ...(token !== undefined ? { token } : {}),
      status: a.status,
      ...(response !== undefined ? { response } : {}),
      durationMs: Math.round(a.ended - a.started),
    });
  }

  /** Records one delivery attempt. */
  delivery(d: DeliveryAttempt): void {
    this.known = this.secrets();
    const data = (d.payload.data ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? this.scrub(cut(v)) : null);
    const operationId = str(data.operation_id);
    this.emit({
      type: 'delivery',
      seq: ++this.seq,
      at: new Date(this.epoch0 + (d.startedAt - this.t0)).toISOString(),
      t: Math.round(d.startedAt - this.t0),
      url: this.scrub(d.url),
      event: str(d.payload.event) ?? '',
      eventId: str(d.payload.event_id),
      transactionId: str(data.transaction_id),
      operationId,
      status: str(data.status),
      attempt: d.attempt,
      forged: d.forged,
      answer: d.answer,
      ...(d.error ? { error: this.scrub(d.error) } : {}),
      durationMs: Math.round(d.durationMs),
    });
  }
}

/**
 * A sink that appends each entry to `file` as one JSON line (the file is created, mode 0600, if it
 * does not exist). Throws at once when the file cannot be opened for appending.
 */
export function jsonLinesSink(file: string): (e: SimRecordEntry) => void {
  closeSync(openSync(file, 'a', 0o600));
  return (e) => appendFileSync(file, `${JSON.stringify(e)}\n`);
}
