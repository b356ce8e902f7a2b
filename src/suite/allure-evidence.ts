/**
 * A scenario's evidence told to the Allure runtime of an integrator's own vitest project (one that set
 * up allure-vitest), through allure-js-commons' public API only: the capability as feature, the clause
 * as a link, the parameters, a step per exchange with its request and response attached, a step per
 * finding. It reads the test's meta, which is redacted already, so no secret reaches Allure.
 *
 * Without a runtime (the project's own `run`, whose Allure results are written from its records) it
 * does nothing: allure-js-commons would otherwise try to import allure-playwright's autoconfig and
 * print "no test runtime is found" on every call.
 */
import { attachment, feature, link, parameter, step } from 'allure-js-commons';
import { BaseMessageTestRuntime, getGlobalTestRuntime } from 'allure-js-commons/sdk/runtime';
import type { Exchange, TestMeta } from '../core/index.ts';

/**
 * Whether an Allure test runtime is installed (allure-vitest/setup installs one per worker). Every
 * allure-js adapter's runtime is a message runtime; the no-op fallback is not. A runtime of another
 * copy of allure-js-commons (an integrator's allure-vitest of another version) is no instance of
 * ours, but it still sends messages, and the runtime is global: the facade reaches it all the same.
 */
export function allureRuntimeInstalled(): boolean {
  const runtime = getGlobalTestRuntime();
  return runtime instanceof BaseMessageTestRuntime || typeof (runtime as { sendMessage?: unknown }).sendMessage === 'function';
}

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** `POST /v1/pay-connect/pair/ → 200`, as the run's own reports name an exchange's step. */
function stepName(ex: Partial<Exchange>): string {
  const answer = ex.response ? String(ex.response.status) : (ex.error?.code ?? 'no answer');
  return `${ex.request?.method ?? '?'} ${ex.request?.path ?? '?'} → ${answer}`;
}

/** Tells the installed Allure runtime what the test's meta holds; nothing without a runtime. */
export async function reportToAllure(meta: TestMeta): Promise<void> {
  if (!allureRuntimeInstalled()) return;
  if (meta.capability) await feature(meta.capability);
  if (meta.clause) await link(meta.clause, meta.clause, 'clause');
  for (const [name, value] of Object.entries(meta.parameters ?? {})) await parameter(name, value);
  for (const ex of (meta.exchanges ?? []) as Partial<Exchange>[]) {
    if (!ex.request) continue;
    await step(stepName(ex), async () => {
      await attachment('request', json(ex.request), 'application/json');
      if (ex.response) await attachment('response', json(ex.response), 'application/json');
      if (ex.error) await attachment('error', json(ex.error), 'application/json');
    });
  }
  for (const f of meta.findings) {
    await step(`[${f.check}] ${f.severity}: ${f.message}`, async () => {
      await attachment(
        'finding',
        json({
          check: f.check,
          severity: f.severity,
          clause: f.clause,
          ...(f.quote?.length ? { quote: f.quote } : {}),
          message: f.message,
          ...(f.known ? { known: f.known } : {}),
          evidence: f.evidence ?? null,
        }),
        'application/json',
      );
    });
  }
}
