/**
 * Pact, in the parts pact-js has: common (names, states, pact files, the contract's schemas; no DSL),
 * consumer (the catalogue over pact-js's DSL and the Pact mock target), provider (verification),
 * check (a pact judged against the contract, without pact-js), broker (publishing). A command
 * imports the part it uses, so check-pact does not load the Pact DSL; this barrel is every part.
 */
export * from './common/index.ts';
export * from './consumer/index.ts';
export * from './provider/index.ts';
export * from './check/index.ts';
export * from './broker/index.ts';
