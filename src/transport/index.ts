/** Outgoing connections: CA files, client certificates, proxies, and the errors of the way to the service. */
export * from './transport.ts';
export * from './environment-errors.ts';
export * from './forwarder.ts';
