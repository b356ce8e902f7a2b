export * from './errors.ts';
export * from './finding.ts';
export * from './exchange.ts';
export * from './operation.ts';
