/**
 * Judges a webhook receiver: sends each rule's deliveries in turn (one at a time, in order), and turns
 * each rule into one test record (capability `receiver`) with its exchanges as evidence and at most
 * one finding (the deliveries that broke it, the first one anchoring the finding in the report).
 * The key never leaves this module: the records hold the signatures (derived from the key, as every
 * delivery carries them), never the key, and any answer that echoes the key has it redacted.
 *
 * A receiver that cannot be judged is given up at once, one root finding naming why, and every rule it
 * kept from being observed is "not checked" (skipped, blocked by that finding), never passed: no answer
 * to the first delivery (unreachable), or no answer within the timeout {@link TIMEOUTS_IN_A_ROW} times
 * in a row (too slow). A delivery is waited for up to {@link capFor} the timeout, to tell a late answer
 * from none; one that follows a timeout only up to the timeout (late again, the receiver is given up
 * whatever the answer). So a receiver slower than the timeout costs about the cap plus the timeout
 * (by default 20 s + 10 s), not a wait per delivery.
 */
import { environmentErrorOf, loadTransport, type Transport } from '../transport/index.ts';
import { type Exchange, type Finding, type RootCause, rootOf, severityFor } from '../core/index.ts';
import { enums } from '../generated/contract.ts';
import type { RunRecord, TestRecord } from '../report/index.ts';
import type { CommandTranscript } from '../transcript/command-transcript.ts';
import { signBody } from '../webhooks/index.ts';
import { ANSWERED_IN_TIME, type Expectation, type PlannedDelivery, RECEIVER_RULES, type ReceiverRule, meets } from './rules.ts';
import { type SentDelivery, sendDelivery } from './send.ts';

/** The capability of every test of the check. */
export const RECEIVER_CAPABILITY = 'receiver';

/** Deliveries in a row not answered within the timeout after which the receiver is not waited for again. */
export const TIMEOUTS_IN_A_ROW = 2;

/** What {@link checkReceiver} needs. */
export interface CheckReceiverOptions {
  url: URL;
  /** The URL as the reports show it. */
  shownUrl: string;
  secret: string;
  /** An answer later than this is a warning (receiver.answered-in-time); {@link TIMEOUTS_IN_A_ROW} in a row give the receiver up. */
  timeoutMs: number;
  strict: boolean;
  userAgent: string;
  /** Told as each rule ends (one line per rule; the root cause's rule first when the receiver is given up). */
  onRule?: (t: TestRecord) => void;
  /** Told once when the receiver is given up (no answer to the first delivery, or too slow): one line. */
  onGiveUp?: (line: string) => void;
  /** The rules to judge (tests). @default RECEIVER_RULES */
  rules?: readonly ReceiverRule[];
  /**
   * Rule ids turned off (current ids, as checks/disable-check.ts validateDisableCheck returns them):
   * neither sent nor filed. The timing rule off still gives up a receiver too slow to be judged (the
   * root cause of what is not checked), but files nothing otherwise.
   */
  disabled?: readonly string[];
  /**
   * TLS towards an https receiver (--ca-file, --client-cert). No proxy: the deliveries stand for the
   * service's, which reach the receiver from outside, not through the integrator's own proxy.
   */
  transport?: Transport;
  /** Where each delivery sent and each rule's verdict is recorded (transcript.jsonl.gz). */
  transcript?: CommandTranscript;
}

/** What of a planned delivery its rule's verdict depends on. */
export type JudgedPlan = Pick<PlannedDelivery, 'label' | 'expect' | 'eventId'>;

/** A rule's input as the transcript keeps it: the deliveries it judged (by seq: their answers are the deliveries' lines), of how many planned. */
export interface RuleInput {
  planned: number;
  judged: ({ seq: number } & JudgedPlan)[];
}

/** receiver.answered-in-time's input: every delivery of the check (by seq), the timeout, and whether the receiver was given up on it. */
export interface TimingInput {
  timeoutMs: number;
  deliveries: ({ seq: number; rule: string } & JudgedPlan)[];
  gaveUp?: { notCheckedRules: number };
}

/** How long a delivery may take before it is given up: the timeout and as long again, at least 5 s more. */
export function capFor(timeoutMs: number): number {
  return timeoutMs + Math.max(timeoutMs, 5_000);
}

/**
 * Whether a delivery was not answered within the timeout: answered late, or not at all within the cap
 * (a connection the receiver closed on purpose, as for an oversized body, is an answer).
 */
export function timedOut(s: SentDelivery, timeoutMs: number): boolean {
  return s.status === undefined ? s.errorCode === 'PCC_TIMEOUT' : s.durationMs > timeoutMs;
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
  const statuses: readonly string[] | undefined =
    kind === 'transaction' ? enums.TransactionStatus : kind === 'operation' ? enums.OperationStatus : undefined;
  return statuses?.includes((status ?? '').toUpperCase()) ? `${kind}Event` : undefined;
}

const testName = (title: string) => `${RECEIVER_CAPABILITY} > ${title}`;

const brief = (p: JudgedPlan, s: SentDelivery) => ({
  seq: s.exchange.seq,
  delivery: p.label,
  ...(p.eventId ? { eventId: p.eventId } : {}),
  answer: s.status ?? `no answer (${s.errorCode})`,
  ms: s.durationMs,
});

/** One delivery as sent, with its rule. */
export interface Sent {
  rule: string;
  planned: JudgedPlan;
  sent: SentDelivery;
}

export type MakeFinding = (
  rule: Pick<ReceiverRule, 'id' | 'source' | 'clause' | 'fix' | 'quote'>,
  message: string,
  evidence: Record<string, unknown>,
  severity?: Finding['severity'],
) => Finding;

type TestBase = Pick<TestRecord, 'name' | 'capability' | 'clause' | 'file' | 'errors' | 'parameters'>;

/** A rule the receiver kept from being observed: skipped, blocked by the root cause, "not checked" in every report. */
function notChecked(
  base: TestBase,
  root: RootCause,
  why: string,
  seen: { sent: SentDelivery[]; findings: Finding[]; durationMs: number } = { sent: [], findings: [], durationMs: 0 },
): TestRecord {
  const { sent, findings, durationMs } = seen;
  return {
    ...base,
    state: 'skipped',
    durationMs,
    findings,
    exchanges: sent.map((s) => s.exchange),
    exchangeCount: sent.length,
    blockedBy: root,
    skipReason: `blocked by [${root.check}] ${root.message.split(';')[0]}: not checked, ${why}`,
    ...(sent.length > 0 ? { startedAt: sent[0]!.exchange.startedAt } : {}),
  };
}

/** The course of a check across its rules: deliveries numbered across rules, timeouts in a row, all sent, and once given up its root cause. */
interface Course {
  seq: number;
  inARow: number;
  readonly all: Sent[];
  blocked?: RootCause;
  timing?: TestRecord;
}

/** What every step of a check shares: its options, its course, how a finding is made, how a rule's record is told and kept. */
interface Check {
  readonly o: CheckReceiverOptions;
  readonly course: Course;
  readonly finding: MakeFinding;
  /** Files a rule's record and tells it (onRule). */
  tell(t: TestRecord): void;
  /** Records in the transcript a rule the live run decided without judging answers (given up, not checked): its findings stand as recorded. */
  keep(t: TestRecord, id: string, why: string): void;
}

const planOf = (x: JudgedPlan & { seq: number }) => ({
  seq: x.seq,
  label: x.label,
  expect: x.expect,
  ...(x.eventId ? { eventId: x.eventId } : {}),
});

/**
 * Sends one planned delivery (number `seq` of the check) and writes it to the transcript. A first
 * delivery that cannot get there (a certificate the toolkit does not trust, http to an https port)
 * throws the environment's error: the way there, not the receiver.
 */
async function deliver(o: CheckReceiverOptions, p: PlannedDelivery, seq: number, capMs: number, name: string): Promise<SentDelivery> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': o.userAgent };
  if (p.signed.signature !== null) headers.Signature = p.signed.signature;
  const s = await sendDelivery(seq, {
    url: o.url,
    shownUrl: o.shownUrl,
    headers,
    body: p.signed.body,
    ...(p.shownBody ? { shownBody: p.shownBody } : {}),
    capMs,
    ...(o.transport?.tls.secureContext ? { secureContext: o.transport.tls.secureContext } : {}),
  });
  if (seq === 1 && s.status === undefined && s.errorCode) {
    const env = environmentErrorOf(
      Object.assign(new Error(s.exchange.error?.message ?? s.errorCode), { code: s.errorCode }),
      o.url.href,
      o.transport ?? loadTransport({}, {}),
    );
    if (env) throw env;
  }
  s.exchange = redactValue(s.exchange, o.secret);
  const op = operationIdOf(p.event);
  if (op) s.exchange.operationId = op;
  o.transcript?.sentDelivery(name, {
    seq,
    url: o.shownUrl,
    sentAt: s.exchange.startedAt,
    headers,
    body: p.signed.body,
    ...(p.event ? { event: p.event } : {}),
    ...(p.eventId ? { eventId: p.eventId } : {}),
    signature: p.signed.signature,
    genuine: p.signed.signature !== null && p.signed.signature === signBody(p.signed.body, o.secret),
    label: p.label,
    expect: p.expect,
    ...(s.status !== undefined ? { status: s.status } : {}),
    ...(s.errorCode ? { errorCode: s.errorCode } : {}),
    durationMs: s.durationMs,
    exchange: s.exchange,
  });
  return s;
}

/**
 * Sends a rule's deliveries in order; stops after a first delivery of the check that got no answer,
 * or once {@link TIMEOUTS_IN_A_ROW} deliveries in a row timed out (`tooSlow`: no more waiting on it,
 * each wait would cost up to the timeout again).
 */
async function sendRule(c: Check, rule: ReceiverRule, planned: readonly PlannedDelivery[], name: string) {
  const { o, course } = c;
  const sent: SentDelivery[] = [];
  for (const p of planned) {
    const capMs = course.inARow > 0 ? o.timeoutMs : capFor(o.timeoutMs);
    const s = await deliver(o, p, ++course.seq, capMs, name);
    sent.push(s);
    course.all.push({ rule: rule.id, planned: p, sent: s });
    // The first delivery of the check: no answer at all means nothing else can be judged.
    if (course.seq === 1 && s.status === undefined) break;
    course.inARow = timedOut(s, o.timeoutMs) ? course.inARow + 1 : 0;
    if (course.inARow >= TIMEOUTS_IN_A_ROW) return { sent, tooSlow: true };
  }
  return { sent, tooSlow: false };
}

/** No answer to the check's first delivery: the rule's finding, the root cause that gives the receiver up. */
function giveUpUnanswered(c: Check, rule: ReceiverRule, base: TestBase, first: PlannedDelivery, s: SentDelivery, t0: number): void {
  const { o } = c;
  const f = c.finding(rule, `no answer to the first delivery (${first.label}): ${s.exchange.error?.message ?? s.errorCode}`, {
    exchange: s.exchange,
    ...(first.eventId ? { eventId: first.eventId } : {}),
  });
  f.test = base.name;
  const t: TestRecord = {
    ...base,
    state: f.severity === 'failure' ? 'failed' : 'passed',
    durationMs: Date.now() - t0,
    findings: [f],
    exchanges: [s.exchange],
    exchangeCount: 1,
    startedAt: new Date(t0).toISOString(),
  };
  c.keep(t, rule.id, "no answer to the first delivery: the receiver was given up (the live run's course)");
  c.tell(t);
  c.course.blocked = rootOf(f, base.name);
  o.onGiveUp?.(`receiver ${o.shownUrl} did not answer: ${s.exchange.error?.message ?? s.errorCode}; the other rules are not checked`);
}

/** One rule: its deliveries sent and judged into its test, or "not checked" once the receiver is given up (`rulesAfter`: how many follow it). */
async function checkRule(c: Check, rule: ReceiverRule, rulesAfter: number): Promise<void> {
  const { o, course } = c;
  const tx = o.transcript;
  const name = testName(rule.title);
  const base: TestBase = {
    name,
    capability: RECEIVER_CAPABILITY,
    clause: rule.clause,
    file: `receiver-check/${rule.id}`,
    errors: [],
    parameters: { rule: rule.id, url: o.shownUrl },
  };
  const planned = rule.plan(o.secret);
  if (course.blocked) {
    const t = notChecked(base, course.blocked, `none of its ${planned.length} deliver${planned.length === 1 ? 'y' : 'ies'} sent`);
    c.keep(t, rule.id, "not checked: the receiver was given up before this rule (the live run's course)");
    c.tell(t);
    return;
  }
  const t0 = Date.now();
  const { sent, tooSlow } = await sendRule(c, rule, planned, name);
  if (course.seq === 1 && sent.length === 1 && sent[0]!.status === undefined) {
    giveUpUnanswered(c, rule, base, planned[0]!, sent[0]!, t0);
    return;
  }
  // Given up as too slow: a delivery that got no answer is the root's, not this rule's; what did answer is judged.
  const judged = planned
    .slice(0, sent.length)
    .map((p, i) => ({ p, s: sent[i]! }))
    .filter((x) => !tooSlow || x.s.status !== undefined);
  const f = judgeRule(rule, name, judged, planned.length, c.finding);
  const input: RuleInput = { planned: planned.length, judged: judged.map((x) => planOf({ seq: x.s.exchange.seq, ...x.p })) };
  const record: TestRecord = {
    ...base,
    state: f?.severity === 'failure' ? 'failed' : 'passed',
    durationMs: Date.now() - t0,
    findings: f ? [f] : [],
    exchanges: sent.map((s) => s.exchange),
    exchangeCount: sent.length,
    startedAt: new Date(t0).toISOString(),
  };
  if (!tooSlow) {
    tx?.check(name, rule.id, input, f ? 'fail' : 'pass', record.findings);
    c.tell(record);
    return;
  }
  // A rule cut short passes nothing: it fails on what it saw, else it is not checked (a warning it saw is kept).
  const cut = judged.length < planned.length && f?.severity !== 'failure';
  const notCheckedRules = rulesAfter + (cut ? 1 : 0);
  const timing = timingTest(course.all, o, c.finding, { notCheckedRules });
  course.timing = timing;
  tx?.check(timing.name, ANSWERED_IN_TIME.id, timingInput(course.all, o.timeoutMs, { notCheckedRules }), 'fail', timing.findings);
  const blocked = rootOf(timing.findings[0]!, timing.name);
  course.blocked = blocked;
  o.onGiveUp?.(`receiver ${o.shownUrl}: ${timing.findings[0]!.message.split(';')[0]}`);
  // The root cause first: the timing rule is decided now (nothing more is sent).
  c.tell(timing);
  const unjudged = sent.length - judged.length;
  const why =
    `${sent.length} of its ${planned.length} deliveries sent${unjudged > 0 ? ` (${unjudged} not answered)` : ''}, ` +
    `${planned.length - sent.length} not sent`;
  if (cut) {
    const t = notChecked(base, blocked, why, { sent, findings: record.findings, durationMs: record.durationMs });
    c.keep(t, rule.id, "not checked: the receiver was given up as too slow during this rule (the live run's course)");
    c.tell(t);
  } else {
    tx?.check(name, rule.id, input, f ? 'fail' : 'pass', record.findings);
    c.tell(record);
  }
}

/** Sends every rule's deliveries and judges them; the record of the run, one test per rule. */
export async function checkReceiver(o: CheckReceiverOptions): Promise<RunRecord> {
  const started = new Date();
  const tests: TestRecord[] = [];
  const off = new Set(o.disabled ?? []);
  const rules = (o.rules ?? RECEIVER_RULES).filter((r) => !off.has(r.id));
  const tx = o.transcript;
  const c: Check = {
    o,
    course: { seq: 0, inARow: 0, all: [] },
    finding: findingMaker(o.strict),
    tell: (t) => {
      tests.push(t);
      o.onRule?.(t);
    },
    keep: (t, id, why) =>
      tx?.check(t.name, id, undefined, t.state === 'skipped' ? 'skip' : t.findings.length > 0 ? 'fail' : 'pass', t.findings, {
        unjudgeable: why,
      }),
  };
  for (const [index, rule] of rules.entries()) await checkRule(c, rule, rules.length - index - 1);
  const { all, blocked, timing } = c.course;
  if (!timing) {
    if (blocked) {
      const t = notChecked(timingBase(o), blocked, 'no delivery answered');
      c.keep(t, ANSWERED_IN_TIME.id, "not checked: the receiver did not answer (the live run's course)");
      c.tell(t);
    } else if (!off.has(ANSWERED_IN_TIME.id)) {
      const t = timingTest(all, o, c.finding);
      tx?.check(t.name, ANSWERED_IN_TIME.id, timingInput(all, o.timeoutMs), t.findings.length > 0 ? 'fail' : 'pass', t.findings);
      c.tell(t);
    }
  }
  return { tests, unhandled: [], startedAt: started.toISOString(), durationMs: Date.now() - started.getTime() };
}

/** How a rule's finding is made with or without --strict. */
export function findingMaker(strict: boolean): MakeFinding {
  return (rule, message, evidence, severity = severityFor(rule.source, strict)) => ({
    check: rule.id,
    severity,
    clause: rule.clause,
    quote: rule.quote ?? [],
    message: `${message}; fix: ${rule.fix}`,
    test: '',
    evidence,
  });
}

/** receiver.answered-in-time's input for the transcript. */
function timingInput(all: readonly Sent[], timeoutMs: number, gaveUp?: { notCheckedRules: number }): TimingInput {
  return {
    timeoutMs,
    deliveries: all.map((x) => ({
      seq: x.sent.exchange.seq,
      rule: x.rule,
      label: x.planned.label,
      expect: x.planned.expect as Expectation,
      ...(x.planned.eventId ? { eventId: x.planned.eventId } : {}),
    })),
    ...(gaveUp ? { gaveUp } : {}),
  };
}

/** A rule's finding over the deliveries it sent: those that broke it (undefined: none did). */
export function judgeRule(
  rule: ReceiverRule,
  name: string,
  judged: { p: JudgedPlan; s: SentDelivery }[],
  plannedCount: number,
  finding: MakeFinding,
): Finding | undefined {
  const bad = judged.map((x) => ({ ...x, verdict: meets(x.p.expect, x.s) })).filter((x) => !x.verdict.ok);
  if (bad.length === 0) return undefined;
  const first = bad[0]!;
  const list = bad.map((b) => `${b.p.label}: ${b.verdict.ok ? '' : b.verdict.why}`);
  const expected = { accepted: 'accepted (2xx)', refused: 'refused (not 2xx)', 'refused-cleanly': 'refused with a 4xx' }[first.p.expect];
  const of =
    judged.length === plannedCount ? `${plannedCount}` : `the ${judged.length} judged (of ${plannedCount}: the receiver was given up)`;
  const f = finding(
    rule,
    `${bad.length} of ${of} deliveries not ${expected}: ${list.slice(0, 5).join('; ')}${list.length > 5 ? '; …' : ''}`,
    {
      exchange: first.s.exchange,
      ...(first.p.eventId ? { eventId: first.p.eventId } : {}),
      deliveries: bad.map((b) => brief(b.p, b.s)),
    },
  );
  f.test = name;
  return f;
}

export function timingBase(o: Pick<CheckReceiverOptions, 'timeoutMs' | 'shownUrl'>): TestBase {
  const rule = ANSWERED_IN_TIME;
  return {
    name: testName(`${rule.title} (${o.timeoutMs} ms)`),
    capability: RECEIVER_CAPABILITY,
    clause: rule.clause,
    file: `receiver-check/${rule.id}`,
    errors: [],
    parameters: { rule: rule.id, url: o.shownUrl, timeout: `${o.timeoutMs} ms` },
  };
}

/**
 * receiver.answered-in-time: every delivery of the check answered within the timeout. `gaveUp`: the
 * receiver was given up as too slow, and this is the root finding, a failure whatever the rule's
 * severity: like an unreachable receiver, one that cannot be judged must not pass.
 */
function timingTest(all: Sent[], o: CheckReceiverOptions, finding: MakeFinding, gaveUp?: { notCheckedRules: number }): TestRecord {
  const base = timingBase(o);
  const findings = timingFindings(all, o.timeoutMs, base.name, finding, gaveUp);
  const late = all.filter((x) => timedOut(x.sent, o.timeoutMs));
  const exchanges: Exchange[] = late.map((x) => x.sent.exchange);
  return {
    ...base,
    state: findings.some((f) => f.severity === 'failure') ? 'failed' : 'passed',
    durationMs: 0,
    findings,
    exchanges,
    exchangeCount: exchanges.length,
    startedAt: new Date().toISOString(),
  };
}

/** receiver.answered-in-time's findings over every delivery of the check (see {@link timingTest}). */
export function timingFindings(
  all: readonly Sent[],
  timeoutMs: number,
  name: string,
  finding: MakeFinding,
  gaveUp?: { notCheckedRules: number },
): Finding[] {
  const late = all.filter((x) => timedOut(x.sent, timeoutMs));
  const findings: Finding[] = [];
  const lateness = (x: Sent) =>
    `${x.planned.label} (${x.rule}): ${x.sent.status === undefined ? (x.sent.exchange.error?.message ?? 'no answer') : `${x.sent.durationMs} ms`}`;
  const evidence = (first: Sent) => ({
    exchange: first.sent.exchange,
    ...(first.planned.eventId ? { eventId: first.planned.eventId } : {}),
    deliveries: late.map((x) => ({ rule: x.rule, ...brief(x.planned, x.sent) })),
  });
  if (gaveUp) {
    const row = late.slice(-TIMEOUTS_IN_A_ROW);
    const n = gaveUp.notCheckedRules;
    const message =
      `no answer within ${timeoutMs} ms to ${TIMEOUTS_IN_A_ROW} deliveries in a row (${row.map(lateness).join(', ')}): ` +
      `the receiver is too slow to be judged and is not waited for again, ${n} rule${n === 1 ? '' : 's'} not checked`;
    findings.push({ ...finding(ANSWERED_IN_TIME, message, evidence(row[0]!), 'failure'), test: name });
  } else if (late.length > 0) {
    const list = late.map(lateness);
    findings.push({
      ...finding(
        ANSWERED_IN_TIME,
        `${late.length} of ${all.length} deliveries answered later than ${timeoutMs} ms: ${list.slice(0, 5).join('; ')}${list.length > 5 ? '; …' : ''}`,
        evidence(late[0]!),
      ),
      test: name,
    });
  }
  return findings;
}
