/** fast-check arbitraries derived from the contract's JSON schemas: valid instances and invalid variants. */
export { validArbitrary, validOf, dateTime } from './valid.ts';
export { invalidArbitrary, invalidOf, type InvalidVariant } from './invalid.ts';
export { allSchemas, schemaByName, deref, type SchemaNode } from './schemas.ts';
