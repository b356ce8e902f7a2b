/**
 * Judges one client's recording: each rule of rules.ts becomes one test record of capability
 * `client`, with its findings (severity from the rule's source and --strict) and, as evidence, the
 * recorded requests and deliveries the rule looked at.
 */
import { runCheck } from '../checks/registry.ts';
import { resolveProfile } from '../profile/index.ts';
import type { TestRecord } from '../report/records.ts';
import type { RecordedRequest } from '../simulator/index.ts';
import { type ClientRun, operationOf, toDeliveryView, toExchange } from './client-run.ts';
import { CLIENT_RULES, webhookAccepted, webhookForgedRejected } from './rules.ts';

/** The capability of every certify-client test. */
export const CLIENT_CAPABILITY = 'client';

/** Which recorded requests each rule shows as its evidence (the rest of the recording is in the first test). */
const RELEVANT: Readonly<Record<string, (r: RecordedRequest) => boolean>> = {
  'client.token-reuse': (r) => operationOf(r)?.operationId === 'getToken' || r.status === 401,
  'client.generate-resend': (r) =>
    ['generateTransaction', 'startPreauth', 'independentRefund', 'linkedRefund', 'getTransactionStatus'].includes(
      operationOf(r)?.operationId ?? '',
    ),
  'client.poll-rate': (r) => ['getTransactionStatus', 'getOperation'].includes(operationOf(r)?.operationId ?? ''),
  'client.busy-retry': (r) =>
    r.status === 409 ||
    ['generateTransaction', 'startPreauth', 'independentRefund', 'linkedRefund', 'getTransactionStatus'].includes(
      operationOf(r)?.operationId ?? '',
    ),
  'client.slip-after-final': (r) => ['getPrintSlip', 'getTransactionStatus'].includes(operationOf(r)?.operationId ?? ''),
  [webhookAccepted.id]: (r) => operationOf(r)?.operationId === 'pair',
  [webhookForgedRejected.id]: (r) => operationOf(r)?.operationId === 'pair',
};
const WITH_DELIVERIES = new Set([webhookAccepted.id, webhookForgedRejected.id, 'client.generate-resend', 'client.slip-after-final']);

/** The test name of a rule: `client > <title> [<id>]`. */
export function ruleTestName(id: string, title: string): string {
  return `${CLIENT_CAPABILITY} > ${title} [${id}]`;
}

/**
 * One test record per rule, but for the rules `o.disabled` turns off (current ids, as
 * checks/disable-check.ts validateDisableCheck returns them): those are neither run nor filed.
 */
export function judgeClient(
  run: ClientRun,
  o: { strict: boolean; startedAt: string; baseUrl?: string; disabled?: readonly string[] },
): TestRecord[] {
  const ctx = { profile: resolveProfile('sandbox'), strict: o.strict };
  return CLIENT_RULES.filter((rule) => !o.disabled?.includes(rule.id)).map((rule): TestRecord => {
    const began = performance.now();
    const result = runCheck(rule, run, ctx);
    const pick = RELEVANT[rule.id];
    const requests = pick ? run.requests.filter(pick) : run.requests;
    const deliveries = WITH_DELIVERIES.has(rule.id) ? run.deliveries : [];
    const failed = result.findings.some((f) => f.severity === 'failure');
    return {
      name: ruleTestName(rule.id, rule.title),
      capability: CLIENT_CAPABILITY,
      clause: rule.clause,
      file: 'certify-client',
      state: result.outcome === 'skip' ? 'skipped' : failed ? 'failed' : 'passed',
      durationMs: Math.round(performance.now() - began),
      findings: result.findings.map((f) => ({ ...f, test: ruleTestName(rule.id, rule.title) })),
      ...(result.outcome === 'skip' ? { skipReason: result.reason ?? 'not applicable' } : {}),
      errors: [],
      parameters: { rule: rule.id, source: rule.source },
      exchanges: requests.map((r) => toExchange(r, o.baseUrl)),
      exchangeCount: requests.length,
      ...(deliveries.length > 0 ? { deliveries: deliveries.map(toDeliveryView) } : {}),
      startedAt: o.startedAt,
    };
  });
}
