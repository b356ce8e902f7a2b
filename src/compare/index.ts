export * from './diff.ts';
export * from './load.ts';
export * from './render.ts';
export * from './shapes.ts';
export * from './write.ts';
