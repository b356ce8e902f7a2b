/**
 * Re-judging a run from its transcript, with the installed checks and contract and no network: every
 * recorded check invocation (and the automatic checks of every exchange) runs again on its recorded
 * input, each test's findings are rebuilt as its scope filed them (a repeat, a duplicate stays one),
 * and the reports are written as a run writes them. What cannot be judged again (an input over the
 * cap or holding secrets, a check the toolkit no longer has) keeps its recorded findings and is listed;
 * findings no check invocation made (service-caused errors, the ledger's blocks) are carried over.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CHECKS, type CheckContext, type CheckRun, FOLLOW_UPS, getCheck, runAutoChecks, runCheck } from '../checks/index.ts';
import {
  type BaselineEntry,
  type Exchange,
  type Finding,
  type SeenAgain,
  ToolkitError,
  countsAsFailure,
  defectKey,
  exchangeSeqOf,
  linkFollowUps,
  markKnown,
} from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import {
  type RunInfo,
  type RunRecord,
  type RunReports,
  type Summary,
  type TestRecord,
  buildSummary,
  exitCodeFor,
  prepareReportsDir,
  writeRunReports,
} from '../report/index.ts';
import { type Transcript, WHOLE_RUN_CHECK, readTranscript } from './assemble.ts';
import {
  type CheckEvent,
  type ConvergenceEvent,
  type DeliveryEvent,
  type Disposition,
  type ExchangeEvent,
  type HeaderLine,
  type RecordedFinding,
  type TestEvent,
  type TranscriptEvent,
  groupKey,
  trimmed,
} from './format.ts';

export { summaryExtras } from './summary-extras.ts';

/** A finding as the differences name it. */
export interface FindingKey {
  test: string;
  check: string;
  severity: Finding['severity'];
  clause: string;
  message: string;
}

/** What re-judging changed against the recorded verdict. */
export interface RejudgeDiff {
  verdict: { recorded?: Summary['verdict']; rejudged: Summary['verdict'] };
  added: FindingKey[];
  gone: FindingKey[];
  changed: (FindingKey & { was: Finding['severity'] })[];
}

/** Check invocations whose recorded findings were kept because they cannot be judged again offline. */
export interface NotRejudgeable {
  test: string;
  check: string;
  why: string;
  count: number;
}

/** A finding carried over as recorded: filed by no check invocation. */
export interface CarriedFinding {
  test: string;
  check: string;
  message: string;
  why: string;
}

export interface RejudgeOptions {
  /** Where the reports go. @default `<dir>/rejudged` */
  out?: string;
  /** How a command's transcript (check-receiver, certify-client) is judged again; without it, only a run's. */
  commands?: CommandRejudge;
}

/** What re-judging a transcript in memory gives: the rebuilt record, and what could not be judged again. */
export interface Rejudgement {
  record: RunRecord;
  info: RunInfo;
  header: HeaderLine;
  notRejudgeable: NotRejudgeable[];
  carried: CarriedFinding[];
}

/** Re-judges a command's transcript by that command's rules. */
export type CommandRejudge = (t: Transcript) => Rejudgement;

export interface RejudgeResult {
  exitCode: 0 | 1 | 2;
  summary: Summary;
  record: RunRecord;
  info: RunInfo;
  diff: RejudgeDiff;
  notRejudgeable: NotRejudgeable[];
  carried: CarriedFinding[];
  outDir: string;
  reports: RunReports;
}

const keyOf = (f: { check: string; message: string }) => `${f.check}\u0000${f.message}`;
const failureLine = (f: Finding) => `[${f.check}] (${f.clause}) ${f.message}`;

/** The rebuilt findings of one test, as its scopes filed them. */
export class TestJudge {
  readonly findings: Finding[] = [];
  /** Findings the run filed as repeats of an earlier test's (disposition `repeat`), as judged again. */
  readonly repeats: Finding[] = [];
  /** Recorded findings the events account for (filed by a check invocation or carried as an event). */
  readonly accounted: string[] = [];
  readonly #filed = new Map<string, Set<string>>();

  constructor(
    readonly test: string,
    private readonly out: { notRejudgeable: Map<string, NotRejudgeable>; carried: CarriedFinding[] },
  ) {}

  /** Files one invocation's findings in scope `scope`: as recorded where the recording knows the finding, else as a new finding of the scope. */
  file(scope: string, found: Finding[], recorded: readonly RecordedFinding[]): void {
    for (const r of recorded) if (r.disposition === 'filed') this.accounted.push(keyOf(r));
    const filed = this.#filed.get(scope) ?? new Set<string>();
    this.#filed.set(scope, filed);
    const unused = [...recorded];
    for (const f of found) {
      const i = unused.findIndex((r) => keyOf(r) === keyOf(f));
      const as: Disposition = i >= 0 ? unused.splice(i, 1)[0]!.disposition : filed.has(keyOf(f)) ? 'dup' : 'filed';
      if (as === 'repeat') this.repeats.push(f);
      if (as !== 'filed' || filed.has(keyOf(f))) continue;
      filed.add(keyOf(f));
      this.findings.push({ ...f, test: this.test });
    }
  }

  /** An invocation that cannot run again: its recorded findings stand. */
  keep(scope: string, check: string, why: string, recorded: readonly RecordedFinding[]): void {
    const k = `${this.test}\u0000${check}\u0000${why}`;
    const hit = this.out.notRejudgeable.get(k);
    if (hit) hit.count++;
    else this.out.notRejudgeable.set(k, { test: this.test, check, why, count: 1 });
    this.file(
      scope,
      recorded.map(({ disposition: _d, ...f }) => f),
      recorded,
    );
  }

  carry(f: Finding, why: string): void {
    this.findings.push({ ...f, test: this.test });
    this.out.carried.push({ test: this.test, check: f.check, message: f.message, why });
  }
}

/** The events of each test (by shard and name), in transcript order. */
function byTest(events: readonly TranscriptEvent[]): Map<string, TranscriptEvent[]> {
  const out = new Map<string, TranscriptEvent[]>();
  for (const e of events) {
    const k = groupKey(e);
    const list = out.get(k) ?? [];
    list.push(e);
    out.set(k, list);
  }
  return out;
}

/** The scopes whose findings the test kept: its last scope (an operator's redo sets earlier ones aside) and that scope's clean-up scopes. */
function keptScopes(events: readonly TranscriptEvent[]): (e: { w?: number; scope: number }) => boolean {
  const scopes = events.filter((e) => e.kind === 'scope');
  const top = scopes.filter((e) => e.parent === undefined).at(-1);
  if (!top) return () => true;
  return (e) =>
    e.w === top.w && (e.scope === top.scope || scopes.some((s) => s.scope === e.scope && s.parent === top.scope && s.w === top.w));
}

/** A delivery event as the reports' DeliveryView. */
function deliveryView(e: DeliveryEvent): Record<string, unknown> {
  const { bodySha256: _s, bodyLength: _l, rawBody, ...d } = e.delivery;
  let body: unknown;
  if (typeof rawBody === 'string') {
    try {
      body = JSON.parse(rawBody);
    } catch {
      /* kept raw */
    }
  }
  return { ...d, ...(body !== undefined && typeof body === 'object' ? { body } : { rawBody }), pairing: e.pairing };
}

/** The state and errors of a test given its rebuilt findings: a verdict made by findings follows them. */
export function restate(rec: TestRecord, findings: Finding[]): TestRecord {
  const failing = (list: readonly Finding[]) => list.filter(countsAsFailure).map(failureLine).sort().join('\n');
  if (failing(rec.findings) === failing(findings) || rec.toolkitError || rec.notFinished) return { ...rec, findings };
  const failures = findings.filter(countsAsFailure);
  if (failures.length > 0) return { ...rec, findings, state: 'failed', errors: rec.wholeRun ? [] : [failures.map(failureLine).join('\n')] };
  return { ...rec, findings, state: rec.state === 'failed' ? 'passed' : rec.state, errors: [] };
}

/** A test's events, judged again: its findings as filed, and what its record and events hold. */
interface JudgedTest {
  events: TranscriptEvent[];
  line: TestEvent | undefined;
  name: string;
  judge: TestJudge;
  recordedFindings: Finding[];
  exchanges: Exchange[];
  deliveries: unknown[];
}

/**
 * What each test saw again of a defect another test reported (its findings the run filed as repeats),
 * with that test's finding as the root: the test that filed the defect, of the same shard (a shard's
 * workers share one ledger).
 */
function seenAgainIn(judged: readonly JudgedTest[]): (events: readonly TranscriptEvent[], judge: TestJudge) => SeenAgain[] {
  const key = (events: readonly TranscriptEvent[], f: Finding) => `${events[0]?.shard ?? 0}\u0000${defectKey(f)}`;
  const roots = new Map<string, SeenAgain['root']>();
  for (const { events, name, judge } of judged)
    for (const f of judge.findings)
      if (!roots.has(key(events, f))) roots.set(key(events, f), { check: f.check, clause: f.clause, message: f.message, test: name });
  return (events, judge) =>
    judge.repeats.flatMap((f) => {
      const root = roots.get(key(events, f));
      const exchangeSeq = exchangeSeqOf(f);
      return root ? [{ check: f.check, severity: f.severity, ...(exchangeSeq === undefined ? {} : { exchangeSeq }), root }] : [];
    });
}

/** Re-judges a transcript in memory: the rebuilt run record, and what could not be judged again. */
export function rejudgeTranscript(t: Transcript, commands?: CommandRejudge): Rejudgement {
  // check-receiver's and certify-client's rules are their own: judged again by their modules, which the caller wires.
  if (t.header.command !== undefined) {
    if (!commands)
      throw new ToolkitError(
        'PCC_USAGE',
        `this is a ${t.header.command} transcript: its rules are that command's own`,
        "judge it again with the rejudge command, which knows every command's rules",
      );
    return commands(t);
  }
  const { header } = t;
  const ctx: CheckContext = { profile: resolveProfile(header.settings.profile as 'sandbox' | 'public'), strict: header.settings.strict };
  const disabled = new Set<string>(header.settings.disabledChecks);
  const baseline = header.settings.baseline as { entries: BaselineEntry[]; now: number } | undefined;
  const refs = new Map<string, ExchangeEvent | ConvergenceEvent>();
  const refKey = (e: { shard?: number; w?: number }, seq: number) => `${e.shard ?? 0}:${e.w ?? 0}:${seq}`;
  for (const e of t.events) if (e.kind === 'exchange' || e.kind === 'convergence') refs.set(refKey(e, e.seq), e);
  const out = { notRejudgeable: new Map<string, NotRejudgeable>(), carried: [] as CarriedFinding[] };
  // Every test judged first, then linked: a test's follow-up may rest on a root an earlier test (in
  // the run's time, not the transcript's order) reported and this one saw again.
  const judged: JudgedTest[] = [];
  for (const [, events] of byTest(t.events)) {
    const line = events.find((e): e is TestEvent => e.kind === 'test');
    const name = events[0]!.test;
    const judge = new TestJudge(name, out);
    const kept = keptScopes(events);
    const exchanges: Exchange[] = [];
    const deliveries: unknown[] = [];
    for (const e of events) {
      if (e.kind === 'delivery') deliveries.push(deliveryView(e));
      if (e.kind !== 'exchange' && e.kind !== 'check' && e.kind !== 'finding') continue;
      if (!kept(e)) continue;
      const scope = `${e.w ?? 0}:${e.scope}`;
      if (e.kind === 'finding') {
        if (e.disposition === 'filed') {
          judge.accounted.push(keyOf(e.finding));
          judge.carry(e.finding, 'filed by no check invocation');
        } else if (e.disposition === 'repeat') judge.repeats.push(e.finding);
      } else if (e.kind === 'exchange') {
        exchanges.push(e.exchange);
        const recorded = new Map((e.auto ?? []).map((a) => [a.check, a.findings]));
        if (e.capped) {
          for (const [check, list] of recorded) judge.keep(scope, check, "a body of its exchange was over the transcript's cap", list);
          continue;
        }
        for (const r of runAutoChecks(e.exchange, ctx)) {
          if (disabled.has(r.check)) continue;
          judge.file(
            scope,
            r.findings.map((f) => ({ ...f, evidence: { ...(f.evidence as object), exchange: trimmed(e.exchange) } })),
            recorded.get(r.check) ?? [],
          );
        }
      } else rejudgeCheck(e, scope, judge, ctx, disabled, e.inputRef === undefined ? undefined : refs.get(refKey(e, e.inputRef)));
    }
    // Findings the test's record holds that no event accounts for (a test carried over by --resume): as recorded.
    const recordedFindings = (line?.record.findings ?? []) as Finding[];
    const accounted = [...judge.accounted];
    for (const f of recordedFindings) {
      const i = accounted.indexOf(keyOf(f));
      if (i >= 0) accounted.splice(i, 1);
      else judge.carry(f, "in the test's record, made by no recorded event");
    }
    judged.push({ events, line, name, judge, recordedFindings, exchanges, deliveries });
  }
  const seenAgain = seenAgainIn(judged);
  const tests: TestRecord[] = [];
  for (const { events, line, name, judge, recordedFindings, exchanges, deliveries } of judged) {
    // What follows from a root on the same exchange is folded under it, as the run did: a root of the
    // test's own, or one another test reported and this one saw again (a repeat, on its exchange).
    const linked = linkFollowUps(judge.findings, seenAgain(events, judge), FOLLOW_UPS, name);
    let findings = baseline ? markKnown(linked, baseline.entries, baseline.now) : linked;
    // A confirmation (--confirm) was judged by running the test again: it stays with its finding.
    findings = findings.map((f) => {
      const was = recordedFindings.find((r) => keyOf(r) === keyOf(f) && r.severity === f.severity);
      return was?.confirmation ? { ...f, confirmation: was.confirmation } : f;
    });
    const wholeRunCheck = events.some((e) => e.kind === 'check' && e.id === WHOLE_RUN_CHECK && e.scope === 0);
    const base = line ? line.record : findings.length > 0 && wholeRunCheck ? wholeRunRecord(name, header) : undefined;
    if (!base) continue;
    const rec = restate({ ...base, exchanges, deliveries }, findings);
    if (rec.wholeRun && findings.length === 0) continue;
    if (rec.wholeRun && !line) tests.unshift(rec);
    else tests.push(rec);
  }
  const record: RunRecord = {
    tests,
    unhandled: [...header.run.unhandled],
    startedAt: header.run.startedAt,
    durationMs: header.run.durationMs,
  };
  return { record, info: header.info, header, notRejudgeable: [...out.notRejudgeable.values()], carried: out.carried };
}

/** One recorded check invocation judged again (or kept as recorded when it cannot be). */
function rejudgeCheck(
  e: CheckEvent,
  scope: string,
  judge: TestJudge,
  ctx: CheckContext,
  disabled: ReadonlySet<string>,
  ref: ExchangeEvent | ConvergenceEvent | undefined,
): void {
  if (disabled.has(e.id)) return;
  const input = e.inputRef === undefined ? e.input : ref?.kind === 'exchange' ? ref.exchange : ref?.observation;
  const why = !CHECKS.has(e.id)
    ? 'the installed toolkit has no such check'
    : (e.unjudgeable ??
      (e.inputRef !== undefined && !ref
        ? 'its input is not in the transcript'
        : ref?.kind === 'exchange' && ref.capped
          ? "a body of its input was over the transcript's cap"
          : undefined));
  if (why) return judge.keep(scope, e.id, why, e.findings);
  const r: CheckRun = runCheck(getCheck(e.id), input, ctx);
  // An exchange, or an input that carries one, is the finding's evidence: as the run's scope has it.
  const sent =
    (input as Exchange | undefined)?.seq !== undefined ? (input as Exchange) : (input as { exchange?: Exchange } | undefined)?.exchange;
  const exchange = sent?.seq !== undefined ? trimmed(sent) : undefined;
  judge.file(
    scope,
    r.findings.map((f) => ({ ...f, evidence: { ...(f.evidence as object), ...(exchange ? { exchange } : {}), ...e.extra } })),
    e.findings,
  );
}

/** The record of a whole-run verdict the recorded run did not have (its check finds something now). */
function wholeRunRecord(name: string, header: HeaderLine): TestRecord {
  const capability = name.split(' > ')[0] ?? 'webhooks';
  return {
    name,
    capability,
    clause: CHECKS.get(WHOLE_RUN_CHECK)?.clause ?? '',
    file: '(the whole run)',
    state: 'passed',
    durationMs: header.run.durationMs,
    findings: [],
    errors: [],
    parameters: {},
    exchanges: [],
    exchangeCount: 0,
    startedAt: header.run.startedAt,
    wholeRun: true,
  };
}

/** The summary of a re-judged record: built as a run builds it, with the recorded run's other facts. */
export function rejudgedSummary(record: RunRecord, info: RunInfo, header: HeaderLine): Summary {
  const x = header.summary as Partial<Summary>;
  const summary = buildSummary(record, info.tool, info.target, {
    ...(x.seed !== undefined ? { seed: x.seed } : {}),
    startedAt: x.startedAt ?? info.startedAt,
    finishedAt: x.finishedAt ?? info.finishedAt,
    labels: x.labels ?? info.labels ?? {},
    ...(x.baseline ? { baseline: x.baseline } : {}),
  });
  const { confirmed, checksDisabled, connection, harness, shards } = x;
  return {
    ...summary,
    ...(confirmed ? { confirmed } : {}),
    ...(checksDisabled ? { checksDisabled } : {}),
    ...(connection ? { connection } : {}),
    ...(harness ? { harness } : {}),
    ...(shards ? { shards } : {}),
  };
}

/** The findings (and known ones) of a summary, as keys. */
function findingKeys(s: Pick<Summary, 'findings' | 'known'>): FindingKey[] {
  return [...s.findings, ...(s.known ?? [])].map((f) => ({
    test: f.test,
    check: f.check,
    severity: f.severity,
    clause: f.clause,
    message: f.message,
  }));
}

/** The differences between the recorded verdict and the re-judged one. */
export function diffSummaries(recorded: Pick<Summary, 'findings' | 'known' | 'verdict'> | undefined, rejudged: Summary): RejudgeDiff {
  const id = (f: FindingKey) => `${f.test}\u0000${f.check}\u0000${f.clause}\u0000${f.message}`;
  const before = findingKeys(recorded ?? { findings: [] });
  const after = findingKeys(rejudged);
  const diff: RejudgeDiff = {
    verdict: { ...(recorded ? { recorded: recorded.verdict } : {}), rejudged: rejudged.verdict },
    added: [],
    gone: [],
    changed: [],
  };
  const left = [...before];
  for (const f of after) {
    const same = left.findIndex((g) => id(g) === id(f) && g.severity === f.severity);
    const other = same >= 0 ? same : left.findIndex((g) => id(g) === id(f));
    if (other < 0) diff.added.push(f);
    else {
      const [was] = left.splice(other, 1);
      if (was!.severity !== f.severity) diff.changed.push({ ...f, was: was!.severity });
    }
  }
  diff.gone.push(...left);
  return diff;
}

/**
 * Re-judges the run whose reports are in `dir` (its transcript.jsonl.gz), writes the reports into
 * `opts.out` (default `<dir>/rejudged`) and compares with `<dir>/summary.json`. Opens no connection.
 */
export async function rejudge(dir: string, opts: RejudgeOptions = {}): Promise<RejudgeResult> {
  dir = resolve(dir);
  const outDir = resolve(opts.out ?? join(dir, 'rejudged'));
  const transcript = await readTranscript(dir);
  const { record, info, header, notRejudgeable, carried } = rejudgeTranscript(transcript, opts.commands);
  const summary = rejudgedSummary(record, info, header);
  await prepareReportsDir(outDir);
  const reports = writeRunReports(outDir, record, summary, info);
  const recordedPath = join(dir, 'summary.json');
  const recorded = existsSync(recordedPath) ? (JSON.parse(readFileSync(recordedPath, 'utf8')) as Summary) : undefined;
  return {
    exitCode: exitCodeFor(record, summary),
    summary,
    record,
    info,
    diff: diffSummaries(recorded, summary),
    notRejudgeable,
    carried,
    outDir,
    reports,
  };
}
