/**
 * What the receiver records about one POST it received. Deliveries are data for findings upstream
 * (a bad signature, a malformed body, a duplicate), never errors of the toolkit.
 */

/**
 * The signature state of a delivery. `unchecked`: a `Signature` header was present but no secret was
 * known yet (the key arrives with the pairing answer, after the URL was given); `setSecret` turns it
 * into `valid` or `invalid`. A body over the size limit stays `unchecked` for good: it was not read.
 */
export type SignatureState = 'valid' | 'missing' | 'invalid' | 'unchecked';

/** One recorded delivery. The receiver may update `signature` and `duplicate` when `setSecret` is called. */
export interface Delivery {
  /** 1-based arrival number within this receiver. */
  readonly seq: number;
  /** Arrival time, epoch milliseconds. */
  readonly receivedAt: number;
  /** Arrival time, ISO 8601. */
  readonly receivedAtIso: string;
  readonly method: string;
  /** The request path (the receiver accepts deliveries on any path). */
  readonly path: string;
  /** Request headers, lower-case names; credentials (`authorization`, `cookie`) are redacted. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body decoded as UTF-8 (empty for a body over the size limit). */
  readonly rawBody: string;
  /** The parsed JSON object, or undefined when the body is not a JSON object. */
  readonly body: unknown;
  /** `body.event` when it is a string. */
  readonly event: string | undefined;
  /** `body.event_id` when it is a string. */
  readonly eventId: string | undefined;
  signature: SignatureState;
  /** The body is not JSON, or not a JSON object (answered 400 when the signature did not fail first). */
  readonly malformed: boolean;
  /** The body exceeded `maxBodyBytes` (answered 413, reading stopped). */
  readonly tooLarge: boolean;
  /** The HTTP status the receiver answered. */
  readonly status: number;
  /** Answered 500 on purpose (`failFirst` / `failNext`), to observe the sender's retries. */
  readonly failedOnPurpose: boolean;
  /**
   * An earlier accepted (2xx, signature not rejected) delivery had the same `event_id` (or, without an
   * `event_id`, the same raw body). A retry after a 500 on purpose is therefore not a duplicate.
   */
  duplicate: boolean;
}

/** Totals over all recorded deliveries. */
export interface DeliveryCounts {
  total: number;
  valid: number;
  invalid: number;
  missing: number;
  unchecked: number;
  duplicates: number;
  malformed: number;
  tooLarge: number;
  failedOnPurpose: number;
}

/** Called once per recorded delivery, after the answer was decided. */
export type DeliveryListener = (delivery: Delivery) => void;
