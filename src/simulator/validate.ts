/** Field validation of request bodies: every violation is a 400 naming the field. */
import { badRequest } from './errors.ts';

/** A parsed JSON request body. */
export type Body = Record<string, unknown>;

/** Upper bound of an amount in cents (sandbox#transactions). */
export const MAX_AMOUNT = 99_999_999;

/**
 * Free-text fields are capped so that stored records stay small (the spec publishes no lengths;
 * the cap is far above anything a client sends).
 */
export const MAX_TEXT = 1024;

/** Parses a JSON body that must be an object. */
export function parseJsonObject(raw: Buffer): Body {
  if (raw.length === 0) throw badRequest('a JSON object body is required');
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('the body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('the body must be a JSON object');
  }
  return value as Body;
}

/** An integer amount in cents, 1..99,999,999 (or any integer when `allowNonPositive`). */
export function amountField(body: Body, key = 'amount', allowNonPositive = false): number {
  const v = body[key];
  if (v === undefined || v === null) throw badRequest(`${key} is required`);
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw badRequest(`${key} must be an integer number of cents`);
  if (v > MAX_AMOUNT || (!allowNonPositive && v < 1)) throw badRequest(`${key} must be between 1 and ${MAX_AMOUNT}`);
  if (allowNonPositive && v < -MAX_AMOUNT) throw badRequest(`${key} is out of range`);
  return v;
}

/**
 * An optional string: absent means "not given". A null is refused: the spec types these fields as
 * strings and no document lets one be null (the public profile makes them optional: left out), as
 * the contract says (contracts/peers/null-agreement.test.ts).
 */
export function optString(body: Body, key: string, max = MAX_TEXT): string | null {
  const v = body[key];
  if (v === undefined) return null;
  if (typeof v !== 'string') throw badRequest(`${key} must be a string${v === null ? ' (null is not one; leave the field out)' : ''}`);
  if (v.length > max) throw badRequest(`${key} is longer than ${max} characters`);
  return v;
}

/** The longest free text the liberal sandbox keeps: no document gives a field a length (its body limit bounds it anyway). */
export const LIBERAL_TEXT = 64 * 1024;

/** A required string, empty or not, of any length up to LIBERAL_TEXT (the liberal sandbox's pair.name-any-string). */
export function anyString(body: Body, key: string): string {
  const v = optString(body, key, LIBERAL_TEXT);
  if (v === null) throw badRequest(`${key} is required`);
  return v;
}

/** A required non-empty string. */
export function reqString(body: Body, key: string, max = MAX_TEXT): string {
  const v = optString(body, key, max);
  if (v === null || v === '') throw badRequest(`${key} is required`);
  return v;
}

/** An optional absolute http(s) URL. */
export function optUrl(body: Body, key: string): string | null {
  const v = optString(body, key, 2048);
  if (v === null) return null;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw badRequest(`${key} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`${key} must be an http(s) URL`);
  return v;
}
