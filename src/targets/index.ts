export * from './safety.ts';
export * from './open-target.ts';
