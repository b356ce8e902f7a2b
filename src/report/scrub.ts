/**
 * The last line of defence of the report writers: the records are redacted by the run already, and
 * this removes whatever still looks like a credential by its shape (a secret JSON field, a bearer
 * value) before anything is written. It cannot know a secret by value: that is the Redactor's job.
 */

/** JSON fields whose values are secret wherever they appear. */
const SECRET_FIELDS = new Set(['client_secret', 'access_token', 'webhook_secret_key', 'refresh_token', 'password']);
const REDACTED = '[REDACTED]';
const FIELD_IN_TEXT = /("(?:client_secret|access_token|webhook_secret_key|refresh_token|password)"\s*:\s*")((?:[^"\\]|\\.)*)(")/g;
const BEARER_IN_TEXT = /\b(Bearer\s+)(?!\[REDACTED\])[A-Za-z0-9\-._~+/]{16,}=*/g;

/** `text` with secret JSON fields and bearer values replaced by `[REDACTED]`. */
export function scrubText(text: string): string {
  return text.replace(FIELD_IN_TEXT, `$1${REDACTED}$3`).replace(BEARER_IN_TEXT, `$1${REDACTED}`);
}

/** A deep copy of `value` with secret fields (when set) and secret-looking text scrubbed. */
export function scrubSecrets<T>(value: T): T {
  if (typeof value === 'string') return scrubText(value) as T;
  if (Array.isArray(value)) return value.map((v) => scrubSecrets(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_FIELDS.has(key) && typeof v === 'string' && v !== '' ? REDACTED : scrubSecrets(v);
  }
  return out as T;
}
