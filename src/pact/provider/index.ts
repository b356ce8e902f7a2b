/** The provider side: pacts verified against the simulator or a service, provider states through the public API. */
export * from './provider-states.ts';
export * from './state-handlers.ts';
export * from './verify.ts';
export * from './verify-isolated.ts';
