export * from './run-conformance.ts';
