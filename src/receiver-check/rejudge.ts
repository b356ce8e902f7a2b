/**
 * check-receiver's rules judged again from a transcript (`rejudge`): a rule's verdict depends only on
 * the deliveries it judged (what each expected, what each got), which the transcript keeps, so the
 * installed rules run again on them with no network. Used by transcript/command-rejudge.ts.
 */
import type { Exchange, Finding } from '../core/index.ts';
import { type RuleInput, type Sent, type TimingInput, findingMaker, judgeRule, timedOut, timingFindings } from './check-receiver.ts';
import { ANSWERED_IN_TIME, RECEIVER_RULES } from './rules.ts';
import type { SentDelivery } from './send.ts';

/** Why a rule invocation cannot be judged again, or its findings now. */
export type ReceiverRejudged = { findings: Finding[]; exchanges?: Exchange[] } | { why: string };

/**
 * Judges rule `id` of test `test` again on `input` (as check-receiver recorded it), the deliveries
 * read back by seq through `sentOf`.
 */
export function rejudgeReceiverRule(
  id: string,
  input: unknown,
  o: { strict: boolean; test: string; sentOf: (seq: number) => SentDelivery | undefined },
): ReceiverRejudged {
  const finding = findingMaker(o.strict);
  const missing = (seqs: number[]) => seqs.filter((n) => o.sentOf(n) === undefined);
  if (id === ANSWERED_IN_TIME.id) {
    const t = input as TimingInput | undefined;
    if (!t || typeof t.timeoutMs !== 'number' || !Array.isArray(t.deliveries)) return { why: "its input is not the timing rule's" };
    const gone = missing(t.deliveries.map((d) => d.seq));
    if (gone.length > 0) return { why: `deliveries ${gone.join(', ')} are not in the transcript` };
    const all: Sent[] = t.deliveries.map((d) => ({ rule: d.rule, planned: d, sent: o.sentOf(d.seq)! }));
    // The test shows the late deliveries, as check-receiver's does.
    return {
      findings: timingFindings(all, t.timeoutMs, o.test, finding, t.gaveUp),
      exchanges: all.filter((x) => timedOut(x.sent, t.timeoutMs)).map((x) => x.sent.exchange),
    };
  }
  const rule = RECEIVER_RULES.find((r) => r.id === id);
  if (!rule) return { why: 'the installed toolkit has no such receiver rule' };
  const r = input as RuleInput | undefined;
  if (!r || typeof r.planned !== 'number' || !Array.isArray(r.judged)) return { why: "its input is not a receiver rule's" };
  const gone = missing(r.judged.map((d) => d.seq));
  if (gone.length > 0) return { why: `deliveries ${gone.join(', ')} are not in the transcript` };
  const f = judgeRule(
    rule,
    o.test,
    r.judged.map((p) => ({ p, s: o.sentOf(p.seq)! })),
    r.planned,
    finding,
  );
  return { findings: f ? [f] : [] };
}
