export { observe, type ObserveOptions, type Observation, type PollResult } from './observe.ts';
