/**
 * Pact: the consumer catalogue (interactions and webhook messages), matchers from the contract's
 * schemas, the pact-vs-contract check, provider verification, the pact target, broker publishing.
 */
export * from './consumer.ts';
export * from './contract-check.ts';
export * from './declare.ts';
export * from './interactions.ts';
export * from './matchers.ts';
export * from './messages.ts';
export * from './names.ts';
export * from './pact-file.ts';
export * from './provider-states.ts';
export * from './publish.ts';
export * from './schema-matcher.ts';
export * from './state-handlers.ts';
export * from './states.ts';
export * from './target.ts';
export * from './verify.ts';
export * from './verify-isolated.ts';
