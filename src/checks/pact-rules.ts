/**
 * check-pact's verdict as a rule: an interaction of an integrator's consumer pact that a provider
 * following the contract could not satisfy (pact/pact-possible.ts gives the reasons). The contract is
 * the spec's, so an impossibility is a failure.
 */
import { defineRule } from './rule.ts';

export const interactionPossible = defineRule({
  id: 'pact.interaction-possible',
  judges: ['check-pact'],
  source: 'spec',
  clause: 'spec#endpoints',
  title: 'every interaction of the pact is possible under the contract',
  fix: 'change the interaction to an operation, headers, body and documented status the contract allows (each reason names the part)',
});

/** check-pact's rules. */
export const PACT_RULES = [interactionPossible] as const;
