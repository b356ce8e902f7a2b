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

/**
 * What every match of {@link FIELD_IN_TEXT} or {@link BEARER_IN_TEXT} contains: text holding none of
 * these is returned as it is without running them (most of a run's strings; a substring search is
 * far cheaper than either pattern's scan).
 */
const MARKS = ['secret', 'token', 'password', 'Bearer'];

/** `text` with secret JSON fields and bearer values replaced by `[REDACTED]`. */
export function scrubText(text: string): string {
  if (!MARKS.some((m) => text.includes(m))) return text;
  return text.replace(FIELD_IN_TEXT, `$1${REDACTED}$3`).replace(BEARER_IN_TEXT, `$1${REDACTED}`);
}

/**
 * `value` with secret fields (when set) and secret-looking text scrubbed, never changed in place: the
 * objects and arrays holding something to scrub are copied, the rest is shared. A run's records are
 * redacted already, so this usually copies nothing (a copy of them all was the report writer's
 * largest allocation).
 */
export function scrubSecrets<T>(value: T): T {
  if (typeof value === 'string') return scrubText(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((v, i) => {
      const s = scrubSecrets(v);
      if (s !== v) (out ??= [...value])[i] = s;
    });
    return (out ?? value) as T;
  }
  let out: Record<string, unknown> | undefined;
  for (const [key, v] of Object.entries(value)) {
    const s = SECRET_FIELDS.has(key) && typeof v === 'string' && v !== '' ? REDACTED : scrubSecrets(v);
    if (s !== v) (out ??= { ...(value as Record<string, unknown>) })[key] = s;
  }
  return (out ?? value) as T;
}
