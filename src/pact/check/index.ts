/** check-pact: a consumer pact judged against the contract (is every interaction possible?), without loading pact-js. */
export * from './check-pact.ts';
export * from './contract-check.ts';
export * from './pact-possible.ts';
