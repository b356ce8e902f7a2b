/**
 * Registered checks of the flow suites (see probes.ts for the pattern). Every exported value
 * with an `id` and a `run` is registered.
 */
export {};
