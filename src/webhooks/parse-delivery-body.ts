/** What the receiver makes of a body's bytes. */
export interface ParsedDeliveryBody {
  /** The body decoded as UTF-8 (lossy when the bytes are not UTF-8; then `malformed` is true). */
  text: string;
  /** The parsed JSON object, or undefined when `malformed`. */
  body: Record<string, unknown> | undefined;
  /** Not UTF-8, not JSON, or JSON but not an object (the sandbox's bodies are objects). */
  malformed: boolean;
  event: string | undefined;
  eventId: string | undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes and parses a webhook body without throwing. The bytes are never re-serialised. */
export function parseDeliveryBody(bytes: Buffer): ParsedDeliveryBody {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return { text: bytes.toString('utf8'), body: undefined, malformed: true, event: undefined, eventId: undefined };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { text, body: undefined, malformed: true, event: undefined, eventId: undefined };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { text, body: undefined, malformed: true, event: undefined, eventId: undefined };
  }
  const body = parsed as Record<string, unknown>;
  return {
    text,
    body,
    malformed: false,
    event: typeof body['event'] === 'string' ? body['event'] : undefined,
    eventId: typeof body['event_id'] === 'string' ? body['event_id'] : undefined,
  };
}
