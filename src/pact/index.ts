/**
 * Pact: the consumer catalogue (interactions and webhook messages), matchers from the contract's
 * schemas, the pact-vs-contract check, provider verification, the pact target, broker publishing.
 */
export * from './consumer/consumer.ts';
export * from './contract-check.ts';
export * from './consumer/declare.ts';
export * from './consumer/interactions.ts';
export * from './consumer/matchers.ts';
export * from './consumer/messages.ts';
export * from './names.ts';
export * from './pact-file.ts';
export * from './provider/provider-states.ts';
export * from './broker/publish.ts';
export * from './schema-matcher.ts';
export * from './provider/state-handlers.ts';
export * from './states.ts';
export * from './consumer/mock-target.ts';
export * from './consumer/mock-record.ts';
export * from './provider/verify.ts';
export * from './provider/verify-isolated.ts';
export * from './any-pact.ts';
export * from './pact-possible.ts';
export * from './check-pact.ts';
export * from './status-latitude.ts';
