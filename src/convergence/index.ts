export { URL_SETTLE_SCALE, observe, type ObserveOptions, type Observation, type PollResult } from './observe.ts';
