/** The consumer side: the toolkit's catalogue (interactions and webhook messages) over pact-js's DSL, and the Pact mock target. */
export * from './consumer.ts';
export * from './declare.ts';
export * from './interactions.ts';
export * from './matchers.ts';
export * from './messages.ts';
export * from './schema-matcher.ts';
export * from './mock-target.ts';
export * from './mock-record.ts';
