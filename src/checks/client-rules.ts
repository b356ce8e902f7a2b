/**
 * The rules certify-client judges an integrator's client by, besides the webhook endpoint's
 * (receiver-rules.ts, shared with check-receiver). The logic is client-check/rules.ts's; this is what
 * the reports, the docs and `--disable-check` know of each rule.
 */
import { defineRule } from './rule.ts';

const CLIENT = ['certify-client'] as const;

export const integratorHeaderRule = defineRule({
  id: 'client.integrator-header',
  judges: CLIENT,
  source: 'spec',
  clause: 'spec#authentication',
  title: 'the integrator header on every call (X-Pay-Connect-Integrator-Id)',
  fix: 'send X-Pay-Connect-Integrator-Id with your integrator id on every call under /v1/pay-connect/ (the token call may omit it)',
});

export const tokenReuseRule = defineRule({
  id: 'client.token-reuse',
  judges: CLIENT,
  source: 'sandbox',
  clause: 'sandbox#tokens',
  title: 'a token reused until it expires, renewed on 401 (no token request per call)',
  fix: 'keep the access token until expires_in is nearly over or a call is answered 401, then get one new token',
});

export const generateResendRule = defineRule({
  id: 'client.generate-resend',
  judges: CLIENT,
  source: 'spec',
  clause: 'spec#what-the-service-does',
  title: 'no payment re-sent without first reading the status of the earlier one (double charge)',
  fix: 'after a lost or timed-out answer, poll the earlier transaction (or wait for its webhook) before starting another',
});

export const pollRateRule = defineRule({
  id: 'client.poll-rate',
  judges: CLIENT,
  source: 'profile',
  clause: 'profile#rules-of-behaviour',
  title: "polling no faster than the client profile's rate, with back-off",
  fix: "poll a resource no more often than the profile's minimum interval and grow the interval (back-off) while it stays pending",
});

export const busyRetryRule = defineRule({
  id: 'client.busy-retry',
  judges: CLIENT,
  source: 'sandbox',
  clause: 'sandbox#transactions',
  title: '409 (terminal busy) handled: no tight retry',
  fix: 'on 409 wait for the running transaction to end (poll with back-off or await its final webhook) before starting another',
});

export const slipAfterFinalRule = defineRule({
  id: 'client.slip-after-final',
  judges: CLIENT,
  source: 'spec',
  clause: 'spec#states-and-transitions',
  title: 'the print slip fetched only after a final status',
  fix: "fetch the print slip only once the transaction's status (polled or from an accepted webhook) is final",
});

export const requestContractRule = defineRule({
  id: 'client.request-contract',
  judges: CLIENT,
  source: 'spec',
  clause: 'spec#endpoints',
  title: 'every request valid against the contract (endpoint, method, body, bearer)',
  fix: "call only the contract's operations (paths end with a slash), with Authorization: Bearer where required and JSON bodies its schemas accept",
});

/** certify-client's own rules, in report order (its webhook rules are receiver-rules.ts's). */
export const CLIENT_ONLY_RULES = [
  integratorHeaderRule,
  tokenReuseRule,
  generateResendRule,
  pollRateRule,
  busyRetryRule,
  slipAfterFinalRule,
  requestContractRule,
] as const;
