/**
 * Why an invalid input is invalid: the rule it is judged by and the sentence of a document that makes
 * it invalid. The properties assert "must be refused" only of a breakage that has one: an amount
 * (sandbox.md, Transactions), an OTP (sandbox.md, Pairing), a payment method (sandbox.md, Configuration),
 * a field a document calls required (public-profile.md). A breakage of a constraint no document states
 * (the contract's own, marked `x-ours`: a webhook_url's pattern, a name's length) or of a field's type
 * that no document calls a reason to refuse (the spec's tables give types, never a refusal) is never
 * sent as "must be refused".
 *
 * The sentences are verbatim from the documents bundled in contracts/spec/ (src/arbitraries/
 * invalid-basis.test.ts finds each one there, under the clause given).
 */

/** What makes an input invalid. */
export interface InvalidBasis {
  /** The rule a service that takes the input breaks. */
  rule: 'request.invalid-rejected';
  /** The heading the sentence is under, e.g. `sandbox#transactions`. */
  clause: string;
  /** The sentence(s), verbatim. */
  quote: readonly string[];
}

/** How a variant breaks its schema (the start of its reason). */
export type BreakageKind =
  | 'wrong type'
  | 'outside enum'
  | 'bad date-time'
  | 'bad uri'
  | 'pattern mismatch'
  | 'fractional number'
  | 'below minimum'
  | 'above maximum'
  | 'missing required';

const basis = (clause: string, ...quote: string[]): InvalidBasis => ({ rule: 'request.invalid-rejected', clause, quote });

/** sandbox.md, Transactions: every `amount` of a body (the contract's Amount). */
export const AMOUNT_BASIS = basis(
  'sandbox#transactions',
  '`amount` is an integer from 1 to 99,999,999 cents; anything else (missing, zero, negative, a fraction, a string) answers 400.',
);
/** sandbox.md, Pairing: the OTP. */
export const OTP_BASIS = basis(
  'sandbox#pairing',
  'A consumed, malformed or never-valid OTP answers 400.',
  'An OTP is six digits. `000000` is never valid.',
);
/** sandbox.md, Configuration: generate's payment_method. */
export const PAYMENT_METHOD_BASIS = basis(
  'sandbox#configuration',
  "A payment method's `id` is the value that `payment_method` takes in generate; a value that is not among them answers 400.",
);
/** public-profile.md: the body fields the public reference requires. */
export const REQUIRED_BASIS = basis(
  'profile#endpoints-the-spec-refers-to-but-does-not-show',
  'Required body fields in the public reference: pairing `name` and `otp` (`webhook_url` optional); ' +
    'generate `amount` (`client_transaction_id` and `payment_method` optional; without a payment ' +
    'method the terminal shows a picker); preauth operations `amount`; token `grant_type`, `client_id`, `client_secret`.',
);

/** The fields the profile's sentence calls required, by request schema. */
const REQUIRED_BY_PROFILE: Readonly<Record<string, readonly string[]>> = {
  PairRequest: ['name', 'otp'],
  TokenRequest: ['grant_type', 'client_id', 'client_secret'],
};

/**
 * The basis of breaking `field` (a top-level property; `''`: the body itself) of request schema
 * `schema` in the way `kind`, or undefined when no document calls the result invalid.
 */
export function basisOf(schema: string, field: string, kind: BreakageKind, hasAmount: boolean): InvalidBasis | undefined {
  // A body that is no object has no amount (missing), no OTP, no required field.
  if (field === '') return hasAmount ? AMOUNT_BASIS : REQUIRED_BY_PROFILE[schema] ? REQUIRED_BASIS : undefined;
  if (field === 'amount' && hasAmount) return AMOUNT_BASIS;
  if (schema === 'PairRequest' && field === 'otp') return kind === 'missing required' ? REQUIRED_BASIS : OTP_BASIS;
  if (kind === 'missing required') return REQUIRED_BY_PROFILE[schema]?.includes(field) ? REQUIRED_BASIS : undefined;
  // A payment_method that is no string is no id of the configuration's.
  if (schema === 'GenerateRequest' && field === 'payment_method' && kind === 'wrong type') return PAYMENT_METHOD_BASIS;
  // The spec's tables give the other fields' types, but no document says a body that breaks one is refused.
  return undefined;
}
