/**
 * Judges a webhook receiver: sends each rule's deliveries in turn (one at a time, in order), and turns
 * each rule into one test record (capability `receiver`) with its exchanges as evidence and at most
 * one finding (the deliveries that broke it, the first one anchoring the finding in the report).
 * The key never leaves this module: the records hold the signatures (derived from the key, as every
 * delivery carries them), never the key, and any answer that echoes the key has it redacted.
 */
import { type Exchange, type Finding, rootOf, severityFor } from '../core/index.ts';
import { enums } from '../generated/contract.ts';
import type { RunRecord, TestRecord } from '../report/index.ts';
import { ANSWERED_IN_TIME, type PlannedDelivery, RECEIVER_RULES, type ReceiverRule, meets } from './rules.ts';
import { type SentDelivery, sendDelivery } from './send.ts';

/** The capability of every test of the check. */
export const RECEIVER_CAPABILITY = 'receiver';

/** What {@link checkReceiver} needs. */
export interface CheckReceiverOptions {
  url: URL;
  /** The URL as the reports show it. */
  shownUrl: string;
  secret: string;
  /** An answer later than this is a warning (receiver.answered-in-time). */
  timeoutMs: number;
  strict: boolean;
  userAgent: string;
  /** Told as each rule ends (one line per rule). */
  onRule?: (t: TestRecord) => void;
  /** Told once when the receiver does not answer the first delivery at all. */
  onUnreachable?: (line: string) => void;
  /** The rules to judge (tests). @default RECEIVER_RULES */
  rules?: readonly ReceiverRule[];
}

/** How long a delivery may take before it is given up: the timeout and as long again, at least 5 s more. */
export function capFor(timeoutMs: number): number {
  return timeoutMs + Math.max(timeoutMs, 5_000);
}

/** `value` with every occurrence of `secret` in its strings replaced (an answer that echoes the key). */
function redactValue<T>(value: T, secret: string): T {
  if (secret.length < 4) return value;
  if (typeof value === 'string') return value.split(secret).join('[REDACTED]') as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secret)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactValue(k, secret), redactValue(v, secret)])) as T;
}

/** The contract's webhook operation of an event it lists (`transactionEvent`, `operationEvent`). */
function operationIdOf(event: string | undefined): string | undefined {
  const [kind, status] = (event ?? '').split('.');
  const statuses: readonly string[] | undefined = kind === 'transaction' ? enums.TransactionStatus : kind === 'operation' ? enums.OperationStatus : undefined;
  return statuses?.includes((status ?? '').toUpperCase()) ? `${kind}Event` : undefined;
}

const testName = (title: string) => `${RECEIVER_CAPABILITY} > ${title}`;

const brief = (p: PlannedDelivery, s: SentDelivery) => ({
  seq: s.exchange.seq,
  delivery: p.label,
  ...(p.eventId ? { eventId: p.eventId } : {}),
  answer: s.status ?? `no answer (${s.errorCode})`,
  ms: s.durationMs,
});

/** Sends every rule's deliveries and judges them; the record of the run, one test per rule. */
export async function checkReceiver(o: CheckReceiverOptions): Promise<RunRecord> {
  const started = new Date();
  const tests: TestRecord[] = [];
  const all: { rule: string; planned: PlannedDelivery; sent: SentDelivery }[] = [];
  const cap = capFor(o.timeoutMs);
  let seq = 0;
  let blocked: ReturnType<typeof rootOf> | undefined;
  const finding = (rule: Pick<ReceiverRule, 'id' | 'source' | 'clause' | 'fix'>, message: string, evidence: Record<string, unknown>): Finding => ({
    check: rule.id, severity: severityFor(rule.source, o.strict), clause: rule.clause, message: `${message}; fix: ${rule.fix}`, test: '', evidence,
  });
  for (const rule of o.rules ?? RECEIVER_RULES) {
    const name = testName(rule.title);
    const base = { name, capability: RECEIVER_CAPABILITY, clause: rule.clause, file: `receiver-check/${rule.id}`, errors: [], parameters: { rule: rule.id, url: o.shownUrl } };
    if (blocked) {
      tests.push({ ...base, state: 'skipped', durationMs: 0, findings: [], exchanges: [], exchangeCount: 0, blockedBy: blocked, skipReason: `not judged: the receiver did not answer (${blocked.message.split(';')[0]})` });
      o.onRule?.(tests.at(-1)!);
      continue;
    }
    const t0 = Date.now();
    const planned = rule.plan(o.secret);
    const sent: SentDelivery[] = [];
    for (const p of planned) {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': o.userAgent };
      if (p.signed.signature !== null) headers.Signature = p.signed.signature;
      const s = await sendDelivery(++seq, { url: o.url, shownUrl: o.shownUrl, headers, body: p.signed.body, ...(p.shownBody ? { shownBody: p.shownBody } : {}), capMs: cap });
      s.exchange = redactValue(s.exchange, o.secret);
      const op = operationIdOf(p.event);
      if (op) s.exchange.operationId = op;
      sent.push(s);
      all.push({ rule: rule.id, planned: p, sent: s });
      // The first delivery of the check: no answer at all means nothing else can be judged.
      if (seq === 1 && s.status === undefined) break;
    }
    const bad = planned.map((p, i) => ({ p, s: sent[i] })).filter((x): x is { p: PlannedDelivery; s: SentDelivery } => x.s !== undefined).map((x) => ({ ...x, verdict: meets(x.p.expect, x.s) })).filter((x) => !x.verdict.ok);
    const findings: Finding[] = [];
    const unanswered = seq === 1 && sent.length === 1 && sent[0]!.status === undefined;
    if (unanswered) {
      const s = sent[0]!;
      const f = finding(rule, `no answer to the first delivery (${planned[0]!.label}): ${s.exchange.error?.message ?? s.errorCode}`, { exchange: s.exchange, ...(planned[0]!.eventId ? { eventId: planned[0]!.eventId } : {}) });
      f.test = name;
      findings.push(f);
      blocked = rootOf(f, name);
      o.onUnreachable?.(`receiver ${o.shownUrl} did not answer: ${s.exchange.error?.message ?? s.errorCode}; the other rules are not judged`);
    } else if (bad.length > 0) {
      const first = bad[0]!;
      const list = bad.map((b) => `${b.p.label}: ${b.verdict.ok ? '' : b.verdict.why}`);
      const expected = { accepted: 'accepted (2xx)', refused: 'refused (not 2xx)', 'refused-cleanly': 'refused with a 4xx' }[first.p.expect];
      const f = finding(rule, `${bad.length} of ${planned.length} deliveries not ${expected}: ${list.slice(0, 5).join('; ')}${list.length > 5 ? '; …' : ''}`, {
        exchange: first.s.exchange,
        ...(first.p.eventId ? { eventId: first.p.eventId } : {}),
        deliveries: bad.map((b) => brief(b.p, b.s)),
      });
      f.test = name;
      findings.push(f);
    }
    tests.push({
      ...base, state: findings.some((f) => f.severity === 'failure') ? 'failed' : 'passed', durationMs: Date.now() - t0, findings,
      exchanges: sent.map((s) => s.exchange), exchangeCount: sent.length, startedAt: new Date(t0).toISOString(),
    });
    o.onRule?.(tests.at(-1)!);
  }
  tests.push(timingTest(all, o, blocked, finding));
  o.onRule?.(tests.at(-1)!);
  return { tests, unhandled: [], startedAt: started.toISOString(), durationMs: Date.now() - started.getTime() };
}

/** receiver.answered-in-time: every delivery of the check answered within the timeout. */
function timingTest(
  all: { rule: string; planned: PlannedDelivery; sent: SentDelivery }[],
  o: CheckReceiverOptions,
  blocked: ReturnType<typeof rootOf> | undefined,
  finding: (rule: Pick<ReceiverRule, 'id' | 'source' | 'clause' | 'fix'>, message: string, evidence: Record<string, unknown>) => Finding,
): TestRecord {
  const rule = ANSWERED_IN_TIME;
  const name = testName(`${rule.title} (${o.timeoutMs} ms)`);
  const base = { name, capability: RECEIVER_CAPABILITY, clause: rule.clause, file: `receiver-check/${rule.id}`, errors: [], parameters: { rule: rule.id, url: o.shownUrl, timeout: `${o.timeoutMs} ms` } };
  if (blocked) return { ...base, state: 'skipped', durationMs: 0, findings: [], exchanges: [], exchangeCount: 0, blockedBy: blocked, skipReason: `not judged: the receiver did not answer (${blocked.message.split(';')[0]})` };
  // A connection the receiver closed on purpose (an oversized body) is an answer in time; no answer within the cap is not.
  const late = all.filter((x) => (x.sent.status !== undefined || x.sent.errorCode === 'PCC_TIMEOUT') && (x.sent.durationMs > o.timeoutMs || x.sent.status === undefined));
  const findings: Finding[] = [];
  if (late.length > 0) {
    const first = late[0]!;
    const list = late.map((x) => `${x.planned.label} (${x.rule}): ${x.sent.status === undefined ? `no answer within ${capFor(o.timeoutMs)} ms` : `${x.sent.durationMs} ms`}`);
    const f = finding(rule, `${late.length} of ${all.length} deliveries answered later than ${o.timeoutMs} ms: ${list.slice(0, 5).join('; ')}${list.length > 5 ? '; …' : ''}`, {
      exchange: first.sent.exchange,
      ...(first.planned.eventId ? { eventId: first.planned.eventId } : {}),
      deliveries: late.map((x) => ({ rule: x.rule, ...brief(x.planned, x.sent) })),
    });
    f.test = name;
    findings.push(f);
  }
  const exchanges: Exchange[] = late.map((x) => x.sent.exchange);
  return { ...base, state: findings.some((f) => f.severity === 'failure') ? 'failed' : 'passed', durationMs: 0, findings, exchanges, exchangeCount: exchanges.length, startedAt: new Date().toISOString() };
}
