/**
 * Registered checks of the webhook suites (see probes.ts for the pattern). Every exported value
 * with an `id` and a `run` is registered.
 */
export {};
