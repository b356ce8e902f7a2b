export { observe, type ObserveOptions, type Observation, type PollResult } from './observe.ts';
export type { StatusSightingLike } from './types.ts';
