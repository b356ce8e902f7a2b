/**
 * What a test leaves in its meta for the reports (redacted: findings, exchanges, webhook deliveries,
 * parameters): the collector and the Allure reporter read it in the main process.
 */
import { type TestMeta, markKnown } from '../core/index.ts';
import { type Harness, type Scope, linkTestFollowUps } from '../runtime/index.ts';
import type { Delivery } from '../webhooks/index.ts';

/** Exchanges kept whole in a test's meta: the first and last ones, and every one with a finding. */
const KEEP_FIRST = 50;
const KEEP_LAST = 10;

function kept(scope: Scope): readonly unknown[] {
  const all = scope.exchanges;
  if (all.length <= KEEP_FIRST + KEEP_LAST) return all;
  const withFinding = new Set(scope.findings.map((f) => (f.evidence as { exchange?: { seq?: number } } | undefined)?.exchange?.seq));
  return all.filter((x, i) => i < KEEP_FIRST || i >= all.length - KEEP_LAST || withFinding.has(x.seq));
}

/** Webhook deliveries judged for each test, by test name (a delivery is judged once): one log per worker. */
export type TestDeliveries = Map<string, unknown[]>;

/** Keeps every delivery the harness judges with the test then running. */
export function logDeliveries(harness: Harness): TestDeliveries {
  const log: TestDeliveries = new Map();
  harness.events.on('delivery', (e) => {
    const list = log.get(e.test) ?? [];
    list.push(deliveryView(e.delivery, e.pairing, e.receiverUrl));
    log.set(e.test, list);
  });
  return log;
}

/** What the reports keep of a delivery (the receiver's record without raw bytes; redacted later). */
function deliveryView(d: Delivery, pairing: string, receiverUrl: string): Record<string, unknown> {
  let url = d.path;
  try {
    url = new URL(d.path, receiverUrl).href;
  } catch {
    /* keep the path */
  }
  return {
    seq: d.seq,
    receivedAt: d.receivedAtIso,
    method: d.method,
    url,
    path: d.path,
    headers: { ...d.headers },
    ...(d.body === undefined ? { rawBody: d.rawBody } : { body: d.body }),
    event: d.event,
    eventId: d.eventId,
    signature: d.signature,
    status: d.status,
    duplicate: d.duplicate,
    failedOnPurpose: d.failedOnPurpose,
    pairing,
  };
}

/** Repeats of a test, folded by root and message. */
function repeatsOf(scope: Scope): NonNullable<TestMeta['repeats']> {
  const out = new Map<string, NonNullable<TestMeta['repeats']>[number]>();
  for (const r of scope.repeats) {
    const key = `${r.check}\u0000${r.root.test}\u0000${r.root.message}`;
    const hit = out.get(key);
    if (hit) hit.count++;
    else out.set(key, { check: r.check, severity: r.severity, clause: r.clause, message: r.root.message, of: r.root.test, count: 1 });
  }
  return [...out.values()];
}

/** Writes what the scope saw into the test's meta (called before the clean-up, and again after it). */
export function recordEvidence(meta: TestMeta, scope: Scope, h: Harness, deliveries: TestDeliveries, worker: number): void {
  const redact = (v: unknown) => h.redactor.redactValue(v);
  // What follows from a root on the same exchange (its own, or one an earlier test reported) is marked so.
  const found = linkTestFollowUps(scope.findings, scope.repeats, scope.testName).map((f) => redact(f) as typeof f);
  // A defect the baseline knows is reported as known: it fails nothing, and says why.
  meta.findings = h.ctx.baseline ? markKnown(found, h.ctx.baseline.entries, h.ctx.baseline.now) : found;
  const repeats = repeatsOf(scope);
  if (repeats.length > 0) meta.repeats = repeats.map((r) => redact(r) as typeof r);
  if (meta.blockedBy) meta.blockedBy = redact(meta.blockedBy) as typeof meta.blockedBy;
  meta.exchanges = kept(scope).map(redact);
  meta.exchangeCount = scope.exchanges.length;
  meta.deliveries = (deliveries.get(scope.testName) ?? []).map(redact);
  if (scope.notChecked.size > 0) meta.notChecked = [...scope.notChecked].map((n) => h.redactor.redactText(n));
  if (scope.webhookFinals > 0) meta.webhookFinals = scope.webhookFinals;
  // What the test exercised (operations, statuses, enums, transitions, events, inputs): coverage.json.
  meta.coverage = scope.coverage();
  meta.timing = scope.timing();
  const load = h.load();
  meta.harness = {
    worker,
    maxEventLoopDelayMs: load.maxEventLoopDelayMs,
    cpuSeconds: load.cpuSeconds,
    ...(scope.remeasured.length > 0 ? { remeasured: [...scope.remeasured] } : {}),
    ...(scope.overloaded.length > 0 ? { overloaded: scope.overloaded.map((o) => h.redactor.redactText(o)) } : {}),
  };
}
