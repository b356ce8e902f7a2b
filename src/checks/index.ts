export * from './check.ts';
export * from './registry.ts';
export type { ConvergenceObservation, DeliveryObservation, StatusSighting } from './observations.ts';
export { isIso3166Alpha2, isIso4217 } from './invariants.ts';
