export * from './run-conformance.ts';
export * from './merge-reports.ts';
