export * from './errors.ts';
export * from './finding.ts';
export * from './exchange.ts';
export * from './operation.ts';
export * from './test-meta.ts';
export * from './observation.ts';
export * from './defect.ts';
export * from './make-dirs.ts';
