/** fast-check arbitraries derived from the contract's JSON schemas: valid instances and invalid variants. */
export { validArbitrary, validOf, dateTime } from './valid.ts';
export { invalidArbitrary, invalidOf, refusableInvalidArbitrary, type InvalidVariant } from './invalid.ts';
export {
  AMOUNT_BASIS,
  type BreakageKind,
  type InvalidBasis,
  OTP_BASIS,
  PAYMENT_METHOD_BASIS,
  REQUIRED_BASIS,
  basisOf,
} from './invalid-basis.ts';
export { type OursConstraint, oursConstraintsOf } from './ours.ts';
export { allSchemas, schemaByName, deref, type SchemaNode } from './schemas.ts';
