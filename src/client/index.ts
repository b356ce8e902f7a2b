/** The HTTP client layer: the typed client, its interceptors and the redactor. */
export * from './attempt-controller.ts';
export * from './bearer-token.ts';
export * from './client.ts';
export * from './request-options.ts';
export * from './credentials-token-source.ts';
export * from './dispatcher.ts';
export * from './fresh-connections.ts';
export * from './integrator-header.ts';
export * from './network-error.ts';
export * from './path.ts';
export * from './post-guard.ts';
export * from './recorder.ts';
export * from './redaction.ts';
export * from './redactor.ts';
export * from './reset-retry.ts';
export * from './timeout.ts';
export * from './token-cache.ts';
