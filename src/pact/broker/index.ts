/** Publishing pact files to a Pact Broker. */
export * from './publish.ts';
