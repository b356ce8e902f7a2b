export * from './collector.ts';
export * from './records.ts';
export * from './summary.ts';
export * from './write.ts';
