/**
 * Verdicts over the whole run, which no single test can give: judged in the main process from every
 * test's record once the suites are done, and reported as tests of their own (`wholeRun`), listed
 * first. Today one: "the service sends webhooks" (spec, Events).
 */
import { type CheckContext, getCheck, runCheck } from '../checks/index.ts';
import type { RunWebhookObservation } from '../checks/webhook-checks.ts';
import type { DeliveryView, RunRecord, TestRecord } from '../report/index.ts';

/** What the run saw of webhooks, from its tests' records. */
export function webhookObservationOf(record: RunRecord): RunWebhookObservation {
  const deliveries = record.tests.flatMap((t) => (t.deliveries ?? []) as DeliveryView[]).filter((d) => !d.failedOnPurpose);
  return {
    observedFinals: record.tests.reduce((n, t) => n + (t.webhookFinals ?? 0), 0),
    deliveries: deliveries.length,
    validDeliveries: deliveries.filter((d) => d.signature === 'valid').length,
  };
}

/**
 * The whole-run verdicts that found something, as test records (failed on a failure finding, else
 * passed with warnings); none when every one held or could not be judged. Disabled checks are not run.
 */
export function judgeRun(record: RunRecord, ctx: CheckContext & { disabledChecks: readonly string[] }): TestRecord[] {
  if (ctx.disabledChecks.includes('webhook.service-sends')) return [];
  const check = getCheck<RunWebhookObservation>('webhook.service-sends');
  const name = 'webhooks > the service sends webhooks (over the whole run)';
  const run = runCheck(check, webhookObservationOf(record), ctx);
  if (run.findings.length === 0) return [];
  return [
    {
      name,
      capability: 'webhooks',
      clause: check.clause,
      file: '(the whole run)',
      state: run.findings.some((f) => f.severity === 'failure') ? 'failed' : 'passed',
      durationMs: record.durationMs,
      findings: run.findings.map((f) => ({ ...f, test: name })),
      errors: [],
      parameters: {},
      exchanges: [],
      exchangeCount: 0,
      startedAt: record.startedAt,
      wholeRun: true,
    },
  ];
}
