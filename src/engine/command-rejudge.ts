/**
 * Re-judging the transcript of check-receiver or certify-client (the header's `command`): their rules
 * are not checks of a run but their own, so each command's module judges its rules again on what the
 * transcript recorded, with no network:
 * - check-receiver: each rule on the deliveries it judged (expectation, answer, time), read back from
 *   the delivery lines; the timing rule on every delivery of the check.
 * - certify-client: every rule on the recording of the client (the `recording` lines), rebuilt as the
 *   command read it.
 * What the live run decided without such data (a receiver given up, a rule not checked, the client
 * command's exit, a TLS handshake), an input over the cap, a rule the installed toolkit lacks: listed
 * as not re-judgeable, the recorded findings kept, so the verdict stays the recorded one.
 */
import { type ClientRun, clientRunOf } from '../client-check/client-run.ts';
import { judgeClient } from '../client-check/judge.ts';
import { CLIENT_RULES } from '../client-check/rules.ts';
import { canonicalRuleId } from '../checks/index.ts';
import type { Exchange, Finding } from '../core/index.ts';
import { rejudgeReceiverRule } from '../receiver-check/rejudge.ts';
import type { SentDelivery } from '../receiver-check/send.ts';
import type { RunInfo, RunRecord, TestRecord } from '../report/index.ts';
import { type RejudgeOptions, type RejudgeResult, type Transcript, rejudge } from '../transcript/index.ts';
import type { CheckEvent, DeliveryEvent, HeaderLine, RecordingEvent, TestEvent } from '../transcript/format.ts';
import { type CarriedFinding, type NotRejudgeable, TestJudge, restate } from '../transcript/rejudge.ts';

const keyOf = (f: { check: string; message: string }) => `${f.check}\u0000${f.message}`;

/** A rule judged again: its findings (and the exchanges its test shows, when they are rebuilt), or why it cannot be. */
type Judged = { findings: Finding[]; exchanges?: readonly unknown[]; deliveries?: unknown[] } | { why: string };

/** The rule judge of one command's transcript. */
type RuleJudge = (e: CheckEvent) => Judged;

/** check-receiver: the deliveries by seq, each rule judged on them. */
function receiverJudge(t: Transcript): RuleJudge {
  const sent = new Map<number, SentDelivery>();
  for (const e of t.events) {
    if (e.kind !== 'delivery' || !e.sent) continue;
    const x = e.sent;
    sent.set(e.delivery.seq, {
      exchange: x.exchange,
      ...(x.exchange.response ? { status: e.delivery.status } : {}),
      ...(x.errorCode ? { errorCode: x.errorCode } : {}),
      durationMs: x.durationMs,
    });
  }
  return (e) => rejudgeReceiverRule(e.id, e.input, { strict: t.header.settings.strict, test: e.test, sentOf: (n) => sent.get(n) });
}

/** certify-client: the client's run rebuilt from the recording lines, every rule judged on it once. */
function clientJudge(t: Transcript): RuleJudge {
  const lines = t.events.filter((e): e is RecordingEvent => e.kind === 'recording');
  const capped = lines.some((l) => l.capped);
  const rules = new Set<string>(CLIENT_RULES.map((r) => r.id));
  const cache = new Map<string, Map<string, TestRecord>>();
  return (e) => {
    // A transcript from before the rule registry names a rule by its former id (client.webhook-accepted).
    const id = canonicalRuleId(e.id) ?? e.id;
    if (!rules.has(id)) return { why: 'the installed toolkit has no such client rule' };
    if (capped) return { why: "an entry of the recording was over the transcript's cap" };
    const more = e.input as Omit<ClientRun, 'requests' | 'deliveries' | 'start'> | undefined;
    if (!more?.settings) return { why: "its input is not a client rule's" };
    const k = JSON.stringify(more);
    let tests = cache.get(k);
    if (!tests) {
      const run = clientRunOf(
        lines.map((l) => l.entry as Parameters<typeof clientRunOf>[0][number]),
        more,
      );
      const baseUrl = (t.header.info as { target?: { baseUrl?: string } }).target?.baseUrl;
      const records = judgeClient(run, {
        strict: t.header.settings.strict,
        startedAt: t.header.run.startedAt,
        ...(baseUrl ? { baseUrl } : {}),
      });
      tests = new Map(records.map((r) => [String(r.parameters.rule), r]));
      cache.set(k, tests);
    }
    const r = tests.get(id);
    if (!r) return { why: 'the installed toolkit has no such client rule' };
    return {
      findings: r.findings.map((f) => ({ ...f, test: e.test })),
      exchanges: r.exchanges,
      ...(r.deliveries ? { deliveries: r.deliveries } : {}),
    };
  };
}

/** Re-judges the transcript of a command (see the module's comment); the same result as a run's re-judging. */
export function rejudgeCommandTranscript(t: Transcript): {
  record: RunRecord;
  info: RunInfo;
  header: HeaderLine;
  notRejudgeable: NotRejudgeable[];
  carried: CarriedFinding[];
} {
  const { header } = t;
  const judgeRule: RuleJudge =
    header.command === 'check-receiver'
      ? receiverJudge(t)
      : header.command === 'certify-client'
        ? clientJudge(t)
        : () => ({ why: `the installed toolkit does not know the command ${String(header.command)}` });
  const out = { notRejudgeable: new Map<string, NotRejudgeable>(), carried: [] as CarriedFinding[] };
  const tests: TestRecord[] = [];
  for (const line of t.events.filter((e): e is TestEvent => e.kind === 'test')) {
    const name = line.test;
    const events = t.events.filter((e) => e.test === name && (e.shard ?? 0) === (line.shard ?? 0));
    const judge = new TestJudge(name, out);
    const base = line.record;
    let exchanges: unknown[] = events
      .filter((e): e is DeliveryEvent => e.kind === 'delivery' && e.sent !== undefined)
      .map((e) => e.sent!.exchange);
    let deliveries: unknown[] | undefined;
    for (const e of events) {
      if (e.kind !== 'check') continue;
      const scope = `${e.w ?? 0}:${e.scope}`;
      const r: Judged = e.unjudgeable ? { why: e.unjudgeable } : judgeRule(e);
      if ('why' in r) {
        judge.keep(scope, e.id, r.why, e.findings);
        continue;
      }
      judge.file(scope, r.findings, e.findings);
      if (r.exchanges) exchanges = [...r.exchanges];
      if (r.deliveries) deliveries = r.deliveries;
    }
    // Findings the test's record holds that no check line accounts for: as recorded.
    const accounted = [...judge.accounted];
    for (const f of base.findings ?? []) {
      const i = accounted.indexOf(keyOf(f));
      if (i >= 0) accounted.splice(i, 1);
      else judge.carry(f, "in the test's record, made by no recorded rule");
    }
    tests.push(
      restate({ ...base, exchanges: exchanges as Exchange[], ...(deliveries ? { deliveries } : {}) } as TestRecord, judge.findings),
    );
  }
  const record: RunRecord = {
    tests,
    unhandled: [...header.run.unhandled],
    startedAt: header.run.startedAt,
    durationMs: header.run.durationMs,
  };
  return { record, info: header.info, header, notRejudgeable: [...out.notRejudgeable.values()], carried: out.carried };
}

/**
 * `rejudge` of any reports folder: a run's transcript by the checks, check-receiver's and
 * certify-client's by those commands' own rules (wired here, above both, so that the transcript
 * module depends on neither).
 */
export function rejudgeReports(dir: string, opts: Omit<RejudgeOptions, 'commands'> = {}): Promise<RejudgeResult> {
  return rejudge(dir, { ...opts, commands: rejudgeCommandTranscript });
}
