export { URL_SETTLE_SCALE, observe, serviceStep, type ObserveOptions, type Observation, type PollResult } from './observe.ts';
