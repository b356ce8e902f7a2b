/** What every part of the pact room shares, no Pact DSL: names, provider states, pact files, the contract's examples and schemas. */
export * from './names.ts';
export * from './states.ts';
export * from './pact-file.ts';
export * from './any-pact.ts';
export * from './contract-examples.ts';
export * from './rule-path.ts';
export * from './schemas.ts';
export * from './status-latitude.ts';
