/**
 * The set of secret values a run has seen (client_secret, access tokens, webhook keys, Authorization
 * values) and the one way to scrub them out of anything written down: Exchange records, logs,
 * reports, pact files. It learns on its own from the records it redacts, so a pairing or token
 * answer is scrubbed in its very first record, before anybody had the chance to register it.
 */
import type { Exchange } from '../core/exchange.ts';

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/** JSON fields whose values are secret wherever they appear. */
export const SECRET_FIELDS: readonly string[] = ['client_secret', 'access_token', 'webhook_secret_key'];

const AUTH_HEADERS = new Set(['authorization', 'proxy-authorization']);

/**
 * The most secrets one regular expression holds. V8 runs an alternation of a few hundred 43-character
 * tokens over a 0.65 kB text in 12-15 us whatever their number; past 400 to 500 of them, in 240-300
 * us. Alternations of 256 keep a worker that has learnt a thousand secrets at 60 us a text.
 */
const PATTERN_SECRETS = 256;

/** Options of {@link Redactor}. */
export interface RedactorOptions {
  /** JSON field names whose values are always redacted and learned. @default SECRET_FIELDS */
  fields?: readonly string[];
  /** Shorter values are not registered: replacing `1` or `ok` everywhere would garble the record. @default 4 */
  minSecretLength?: number;
}

/** A growing set of secrets and the functions that scrub them. */
export class Redactor {
  readonly #secrets = new Set<string>();
  /**
   * The secrets of the last build, longest first, in alternations of at most {@link PATTERN_SECRETS}
   * each (applied in that order, so a secret that holds another goes first).
   */
  #patterns: RegExp[] = [];
  /**
   * Secrets added since that build, each neither part of another secret nor holding one (so the order
   * they are replaced in does not matter), replaced one by one until the next build.
   */
  #pending: string[] = [];
  readonly #fields: Set<string>;
  readonly #fieldPattern: RegExp;
  readonly #minLength: number;
  /** The length of the shortest secret known (no shorter string holds one). */
  #shortest = Infinity;
  /**
   * The records {@link redactExchange} made, each with how many secrets were known then: scrubbed of
   * all of them, so {@link redactValue} hands such a record back as it is while no secret was learnt
   * since (the transcript and a test's evidence each scrub every exchange again: a tenth of a
   * worker's CPU went to redaction). A record is never changed once made.
   */
  readonly #clean = new WeakMap<object, number>();

  constructor(secrets: Iterable<string> = [], options: RedactorOptions = {}) {
    this.#fields = new Set(options.fields ?? SECRET_FIELDS);
    const names = [...this.#fields].map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    // "field" : "value" in raw text, also in text that is not valid JSON as a whole.
    this.#fieldPattern = new RegExp(`("(?:${names})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)(")`, 'g');
    this.#minLength = options.minSecretLength ?? 4;
    this.register(...secrets);
  }

  /** How many secrets are known. */
  get size(): number {
    return this.#secrets.size;
  }

  /** Adds secret values (non-strings and too-short strings are ignored), also in JSON-escaped form. */
  register(...values: unknown[]): void {
    for (const value of values) {
      if (typeof value !== 'string' || value.length < this.#minLength || value === REDACTED) continue;
      this.#add(value);
      this.#add(JSON.stringify(value).slice(1, -1));
    }
  }

  /**
   * Learning happens on every record (the same token again and again): only a new secret costs
   * anything. One pass of a pattern over a string (one per {@link PATTERN_SECRETS}), instead of a
   * split and join per secret, keeps a worker's redaction from growing with every secret it has seen;
   * but compiling the patterns again for every new token grew with their square (0.5 s of CPU to
   * learn 300 secrets, 6 s for 1000: bench/redactor.ts). So a new secret waits in {@link #pending}
   * until they are a quarter of those built in, unless it overlaps another secret: then the longest
   * must go first, which only the patterns' order does.
   */
  #add(secret: string): void {
    if (this.#secrets.has(secret)) return;
    // The marker counts as known: a pending secret must not be found again in what was replaced.
    const overlaps = [REDACTED, ...this.#secrets].some((known) => known.includes(secret) || secret.includes(known));
    this.#secrets.add(secret);
    this.#shortest = Math.min(this.#shortest, secret.length);
    this.#pending.push(secret);
    if (overlaps || this.#pending.length > Math.max(8, (this.#secrets.size - this.#pending.length) / 4)) this.#build();
  }

  #build(): void {
    const longestFirst = [...this.#secrets].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.#patterns = [];
    for (let i = 0; i < longestFirst.length; i += PATTERN_SECRETS) {
      this.#patterns.push(new RegExp(longestFirst.slice(i, i + PATTERN_SECRETS).join('|'), 'g'));
    }
    this.#pending = [];
  }

  /** Registers the values of the secret fields found anywhere in a parsed JSON value. */
  learnFrom(value: unknown): void {
    if (Array.isArray(value)) value.forEach((v) => this.learnFrom(v));
    else if (value !== null && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (this.#fields.has(key)) this.register(v);
        else this.learnFrom(v);
      }
    }
  }

  /** Registers the values of `"secret_field": "..."` pairs found in raw text. */
  learnFromText(text: string): void {
    for (const match of text.matchAll(this.#fieldPattern)) {
      const escaped = match[2] ?? '';
      this.register(escaped);
      try {
        this.register(JSON.parse(`"${escaped}"`));
      } catch {
        /* not a valid JSON string: the escaped form is registered */
      }
    }
  }

  /** `text` with every known secret and every `"secret_field": "..."` value replaced by `[REDACTED]`. */
  redactText(text: string): string {
    // Most strings are short and unquoted (header values, ids, statuses): a field needs its quotes,
    // a secret its length. Checked first, they spare those strings both regular expressions.
    let out = text.includes('"') ? text.replace(this.#fieldPattern, `$1${REDACTED}$3`) : text;
    if (out.length < this.#shortest) return out;
    for (const pattern of this.#patterns) out = out.replace(pattern, REDACTED);
    for (const secret of this.#pending) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  /**
   * A deep copy of `value`: secret fields (when not null) redacted, every string scrubbed. A record
   * {@link redactExchange} made, with no secret learnt since, is itself (no copy: records are not changed).
   */
  redactValue<T>(value: T): T {
    if (typeof value === 'string') return this.redactText(value) as T;
    if (value === null || typeof value !== 'object') return value;
    if (this.#clean.get(value) === this.#secrets.size) return value;
    if (Array.isArray(value)) return value.map((v) => this.redactValue(v)) as T;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = this.#fields.has(key) && v !== null && v !== undefined ? REDACTED : this.redactValue(v);
    }
    return out as T;
  }

  /** Headers with Authorization as `Bearer [REDACTED]` (scheme kept) and secrets scrubbed elsewhere. */
  redactHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (!AUTH_HEADERS.has(name.toLowerCase())) {
        out[name] = this.redactText(value);
        continue;
      }
      const scheme = /^\s*(\S+)\s+\S/.exec(value)?.[1];
      out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
    }
    return out;
  }

  /** Learns the secrets an Exchange reveals, then returns a redacted copy of it: a record, never to be changed. */
  redactExchange(exchange: Exchange): Exchange {
    const { request, response, error } = exchange;
    for (const [name, value] of Object.entries(request.headers)) {
      if (!AUTH_HEADERS.has(name.toLowerCase())) continue;
      // The credential after the scheme covers the whole value (`Bearer x` holds `x`); the whole value
      // only when the credential is too short to register (both made every pattern twice as long).
      const credential = value.replace(/^\s*\S+\s+/, '');
      this.register(credential.length >= this.#minLength ? credential : value);
    }
    this.learnFrom(request.body);
    if (typeof request.body === 'string') this.learnFromText(request.body);
    this.learnFrom(response?.body);
    if (response?.rawBody !== undefined) this.learnFromText(response.rawBody);
    const record: Exchange = {
      ...exchange,
      request: {
        ...request,
        url: this.redactText(request.url),
        path: this.redactText(request.path),
        headers: this.redactHeaders(request.headers),
        ...(request.body === undefined ? {} : { body: this.redactValue(request.body) }),
      },
      ...(response === undefined
        ? {}
        : {
            response: {
              ...response,
              headers: this.redactHeaders(response.headers),
              ...(response.body === undefined ? {} : { body: this.redactValue(response.body) }),
              ...(response.rawBody === undefined ? {} : { rawBody: this.redactText(response.rawBody) }),
            },
          }),
      ...(error === undefined ? {} : { error: { ...error, message: this.redactText(error.message) } }),
    };
    this.#clean.set(record, this.#secrets.size);
    return record;
  }
}
