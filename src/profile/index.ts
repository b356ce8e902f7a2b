export * from './profile.ts';
export * from './transitions.ts';
