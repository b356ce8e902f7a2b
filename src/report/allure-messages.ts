/**
 * The Allure picture of one test, as allure-js runtime messages: labels (epic = capability, feature =
 * endpoint, story = scenario, tag = clause, severity), parameters, a link per clause, one step per
 * HTTP exchange and per webhook delivery, and the evidence sized to stay small (a full run's reports
 * under 10 MB): the test's whole conversation is ONE text attachment (`exchanges`: curl line and
 * answer of each, in time order), and only an exchange or delivery that a finding is about carries its
 * own attachment (`exchange`, `delivery`) under its step, with the finding. Pure: it reads a redacted TestRecord and returns data;
 * the report writer (allure-results.ts) turns them into Allure result files.
 */
import { type Exchange, type Finding, type OperatorEntry, countsAsFailure } from '../core/index.ts';
import { curlForDelivery, curlForExchange, curlPreamble } from './curl.ts';
import {
  clauseSource,
  confirmationText,
  findingLine,
  foldFindings,
  followUpLine,
  knownOf,
  knownText,
  outcomeOf,
  quoteText,
  scenarioOf,
  warningsOf,
  failuresOf,
} from './outcome.ts';
import type { DeliveryView, TestRecord } from './records.ts';

/** Allure's step and test statuses. */
export type AllureStatus = 'passed' | 'failed' | 'broken' | 'skipped';

/** The allure-js runtime messages this module produces (a subset of allure-js-commons' RuntimeMessage). */
export type AllureMessage =
  | {
      type: 'metadata';
      data: {
        labels?: { name: string; value: string }[];
        links?: { name?: string; url: string; type?: string }[];
        parameters?: { name: string; value: string; excluded?: boolean }[];
        description?: string;
      };
    }
  | { type: 'step_start'; data: { name: string; start: number } }
  | { type: 'step_stop'; data: { stop: number; status: AllureStatus; statusDetails?: { message?: string } } }
  | {
      type: 'attachment_content';
      data: { name: string; content: string; encoding: 'base64'; contentType: string; fileExtension?: string; wrapInStep: false };
    };

/** An endpoint of the contract, to name a test's feature after the endpoint its clause describes. */
export interface EndpointRef {
  operationId: string;
  method: string;
  path: string;
}

/** Options of {@link allureMessagesFor}. */
export interface AllureMessageOptions {
  /** The URL a clause links to. @default {@link defaultClauseUrl} */
  clauseUrl?: (clause: string) => string;
  /** The contract's endpoints (for the feature label). @default [] (the first exchange's operation is used) */
  endpoints?: readonly EndpointRef[];
  /** The text of a clause (its section of the spec, profile or sandbox document), attached to each test with a finding or a failure that it concerns. */
  clauseText?: (clause: string) => string | undefined;
  /** Bodies longer than this are cut (in the attachment of an exchange a finding is about). @default 16384 */
  maxBodyChars?: number;
  /** Bodies longer than this are cut in the `exchanges` transcript. @default 4096 */
  transcriptBodyChars?: number;
  /**
   * A long test (a fuzz run of hundreds of requests) shows its first and last exchanges and webhook
   * deliveries, and every one with a finding, in full (a step each, their curl line and answer in the
   * transcript); a run of them in between is one step, and one line each in the transcript.
   * @default { first: 5, last: 3 }
   */
  attachExchanges?: { first: number; last: number };
}

/** The documents the clause sources live in. */
export const CLAUSE_DOCUMENTS: Readonly<Record<string, string>> = {
  spec: 'pay-connect-spec.md',
  profile: 'public-profile.md',
  sandbox: 'sandbox.md',
};

/** `spec#x` -> `<base>pay-connect-spec.md#x` (and profile, sandbox alike); `base` ends with `/`. */
export function clauseUrlFrom(base: string): (clause: string) => string {
  return (clause) => {
    const [source = '', anchor = ''] = clause.split('#');
    return `${base}${CLAUSE_DOCUMENTS[source] ?? `${source}.md`}${anchor ? `#${anchor}` : ''}`;
  };
}

/**
 * Clause links to the spec documents bundled in the reports folder (spec/*.html, written with the
 * reports), relative to the Allure HTML report in allure-report/; PAYCONNECT_SPEC_BASE_URL links to
 * published documents instead. The clause's text is attached to each test as well.
 */
export const defaultClauseUrl = bundledClauseUrl('../');

/** The folder of the reports the spec documents are bundled in (report/spec-bundle.ts writes them). */
export const SPEC_BUNDLE_DIR = 'spec';

/** A clause's link to its bundled page (`spec/pay-connect-spec.html#x`), from a page `prefix` away from the reports folder (`''`, `'../'`). */
export function bundledClauseUrl(prefix: string): (clause: string) => string {
  return (clause) => {
    const [source = '', anchor = ''] = clause.split('#');
    const doc = (CLAUSE_DOCUMENTS[source] ?? `${source}.md`).replace(/\.md$/, '.html');
    return `${prefix}${SPEC_BUNDLE_DIR}/${doc}${anchor ? `#${anchor}` : ''}`;
  };
}

/** The anchor a Markdown heading gets (GitHub's rule): `POST /v1/a/{id}/` -> `post-v1aidj`. */
export function headingAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/**
 * The endpoint a test is about: the one its clause's heading names; else the first request of an
 * operation named after its capability (a print-slip test is about getPrintSlip, though it starts a
 * payment first); else its first request that is not setup (pairing, token).
 */
export function featureOf(t: TestRecord, endpoints: readonly EndpointRef[] = []): string | undefined {
  const anchor = t.clause.split('#')[1];
  const byClause = endpoints.find((e) => headingAnchor(`${e.method} ${e.path}`) === anchor);
  if (byClause) return byClause.operationId;
  const ops = (t.exchanges as Partial<Exchange>[]).map((e) => e.operationId).filter((o): o is string => typeof o === 'string');
  const capability = t.capability.toLowerCase().replace(/[^a-z]/g, '');
  const named =
    capability === '' ? undefined : ops.find((o) => o.toLowerCase().includes(capability) || capability.includes(o.toLowerCase()));
  // Pairing is the setup of whichever test needed the terminal's pairing first: it names no test's feature
  // unless the test does nothing else.
  return named ?? ops.find((o) => o !== 'pair' && o !== 'getToken') ?? ops.find((o) => o !== 'pair') ?? ops[0];
}

const RANK = ['trivial', 'minor', 'normal', 'critical', 'blocker'];

/**
 * The test's severity label. With findings, the gravest one decides: a failed spec clause is
 * critical, another failure (a profile or sandbox rule under --strict) normal, a warning minor. A test
 * without findings takes its clause's: spec critical, profile normal, sandbox minor.
 */
export function severityOf(t: TestRecord): string {
  if (t.findings.length > 0) {
    const of = (f: TestRecord['findings'][number]) =>
      f.severity !== 'failure' ? 'minor' : clauseSource(f.clause) === 'spec' ? 'critical' : 'normal';
    return t.findings.map(of).reduce((a, b) => (RANK.indexOf(b) > RANK.indexOf(a) ? b : a));
  }
  return { spec: 'critical', profile: 'normal', sandbox: 'minor' }[clauseSource(t.clause)] ?? 'normal';
}

const encode = (s: string) => Buffer.from(s, 'utf8').toString('base64');

function attach(name: string, content: string, contentType: string, fileExtension: string): AllureMessage {
  return {
    type: 'attachment_content',
    data: { name, content: encode(content), encoding: 'base64', contentType, fileExtension, wrapInStep: false },
  };
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

type Event =
  { at: number; seq: number; kind: 'exchange'; ex: Partial<Exchange> } | { at: number; seq: number; kind: 'delivery'; d: DeliveryView };

function eventsOf(t: TestRecord): Event[] {
  const events: Event[] = [];
  for (const ex of t.exchanges as Partial<Exchange>[]) {
    if (!ex?.request) continue;
    events.push({ at: Date.parse(ex.startedAt ?? '') || 0, seq: ex.seq ?? 0, kind: 'exchange', ex });
  }
  for (const d of (t.deliveries ?? []) as DeliveryView[]) {
    if (!d || typeof d !== 'object') continue;
    events.push({ at: Date.parse(d.receivedAt ?? '') || 0, seq: d.seq ?? 0, kind: 'delivery', d });
  }
  return events.sort((a, b) => a.at - b.at || a.seq - b.seq);
}

/** Where a finding belongs: under the exchange (by seq) or delivery (by event id) its evidence names. */
function anchorOf(f: Finding): { exchangeSeq?: number; eventId?: string } {
  const ev = f.evidence as { exchange?: { seq?: unknown }; eventId?: unknown } | null | undefined;
  return {
    exchangeSeq: typeof ev?.exchange?.seq === 'number' ? ev.exchange.seq : undefined,
    eventId: typeof ev?.eventId === 'string' ? ev.eventId : undefined,
  };
}

/** One step per finding; what follows from a root (one defect) is a step inside the root's. */
function findingSteps(findings: Finding[], at: number, dropExchange: boolean): AllureMessage[] {
  return foldFindings(findings).flatMap(({ finding, followUps }) =>
    findingStep(finding, at, dropExchange, findingSteps(followUps, at, dropExchange)),
  );
}

function findingStep(f: Finding, at: number, dropExchange: boolean, inner: AllureMessage[]): AllureMessage[] {
  const out: AllureMessage[] = [];
  const failure = f.severity === 'failure' && !f.known;
  const name = `${f.followsFrom ? `↳ follows from [${f.followsFrom.check}]: ` : ''}${f.known ? 'KNOWN' : failure ? 'FAIL' : 'WARN'} ${findingLine(f)}`;
  out.push({ type: 'step_start', data: { name: name.length > 300 ? `${name.slice(0, 299)}…` : name, start: at } });
  let evidence = f.evidence;
  if (dropExchange && evidence && typeof evidence === 'object' && 'exchange' in evidence) {
    const { exchange: _exchange, ...rest } = evidence as Record<string, unknown>;
    evidence = rest;
  }
  out.push(
    attach(
      'finding',
      json({
        check: f.check,
        severity: f.severity,
        clause: f.clause,
        ...(f.quote?.length ? { quote: f.quote } : {}),
        message: f.message,
        ...(f.known ? { known: f.known } : {}),
        ...(f.followsFrom ? { followsFrom: f.followsFrom } : {}),
        evidence: evidence ?? null,
      }),
      'application/json',
      'json',
    ),
  );
  out.push(...inner);
  const quote = quoteText(f) ? `\n${f.clause}: ${quoteText(f)}` : '';
  out.push({
    type: 'step_stop',
    data: { stop: at, status: failure ? 'failed' : 'passed', ...(failure ? { statusDetails: { message: `${f.message}${quote}` } } : {}) },
  });
  return out;
}

const stepName = (ex: Partial<Exchange>) => {
  const req = ex.request!;
  const answer = ex.response ? String(ex.response.status) : (ex.error?.code ?? 'no answer');
  return `${req.method} ${req.path} → ${answer}${ex.operationId ? ` (${ex.operationId})` : ''}`;
};

const deliveryName = (d: DeliveryView) => {
  const flags = [
    `signature ${d.signature ?? '?'}`,
    ...(d.duplicate ? ['duplicate'] : []),
    ...(d.failedOnPurpose ? ['answered 500 on purpose'] : []),
  ];
  return `webhook ${d.event ?? '(no event)'} #${d.seq ?? '?'} → ${d.status ?? '?'} (${flags.join(', ')})`;
};

/** Answer headers that describe the connection or the moment, not the service's answer: left out of the transcript. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'date', 'content-length', 'transfer-encoding']);

/** A body for reading: JSON indented, text as is, cut at `max` characters. */
function bodyText(body: unknown, max: number): string {
  const text = typeof body === 'string' ? body : (JSON.stringify(body, null, 2) ?? '');
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars, cut)` : text;
}

const startOf = (ex: Partial<Exchange>) => Date.parse(ex.startedAt ?? '') || 0;
const stopOf = (ex: Partial<Exchange>) => startOf(ex) + Math.round(ex.durationMs ?? 0);
const ms = (ex: Partial<Exchange>) => (ex.durationMs === undefined ? '' : `, ${Math.round(ex.durationMs)} ms`);

/** One exchange in the transcript: a heading, the curl line that repeats it, and the answer. */
function exchangeEntry(ex: Partial<Exchange>, max: number): string {
  const lines = [
    `=== #${ex.seq ?? '?'} ${stepName(ex)}${ms(ex)}${ex.startedAt ? ` at ${ex.startedAt}` : ''}`,
    curlForExchange({ request: ex.request! }),
    '',
  ];
  if (ex.response) {
    lines.push(
      `HTTP ${ex.response.status}`,
      ...Object.entries(ex.response.headers ?? {})
        .filter(([k]) => !CONNECTION_HEADERS.has(k.toLowerCase()))
        .map(([k, v]) => `${k}: ${v}`),
    );
    const body = ex.response.body !== undefined ? ex.response.body : ex.response.rawBody;
    if (body !== undefined && body !== '') lines.push('', bodyText(body, max));
  } else {
    lines.push(`(no answer: ${[ex.error?.code, ex.error?.message].filter(Boolean).join(' ') || 'none recorded'})`);
  }
  return lines.join('\n');
}

/** One webhook delivery in the transcript: what the receiver answered, and the curl line that replays it. */
function deliveryEntry(d: DeliveryView): string {
  const who = d.pairing ? ` for ${d.pairing}` : '';
  return [
    `=== ${deliveryName(d)}${who}${d.receivedAt ? ` at ${d.receivedAt}` : ''}`,
    "# replays the delivery to the run's receiver (gone after the run: change the URL)",
    curlForDelivery(d),
  ].join('\n');
}

/** A run of events in the middle of a long test: what it holds, for the step's name and the transcript. */
function runTitle(run: Event[]): string {
  const exchanges = run.filter((e) => e.kind === 'exchange').map((e) => e.ex);
  const deliveries = run.length - exchanges.length;
  const first = `#${exchanges[0]?.seq ?? '?'}`;
  const seqs = exchanges.length > 1 ? ` (${first} to #${exchanges.at(-1)!.seq ?? '?'})` : ` (${first})`;
  const what = [
    ...(exchanges.length > 0 ? [`${exchanges.length} exchange${exchanges.length === 1 ? '' : 's'}${seqs}`] : []),
    ...(deliveries > 0 ? [`${deliveries} webhook deliver${deliveries === 1 ? 'y' : 'ies'}`] : []),
  ];
  return what.join(' and ');
}

/** Events shown as one line each (the middle of a long test). */
function runLines(run: Event[]): string {
  return [
    `=== ${runTitle(run)}, one line each`,
    ...run.map((e) => (e.kind === 'exchange' ? `#${e.ex.seq ?? '?'} ${stepName(e.ex)}${ms(e.ex)}` : deliveryName(e.d))),
  ].join('\n');
}

/** The step of an exchange; with a finding, the exchange attached (curl line and answer) and the finding under it. */
function exchangeStep(ex: Partial<Exchange>, findings: Finding[], max: number): AllureMessage[] {
  const status: AllureStatus = findings.some(countsAsFailure) ? 'failed' : ex.response ? 'passed' : 'broken';
  const out: AllureMessage[] = [{ type: 'step_start', data: { name: stepName(ex), start: startOf(ex) } }];
  if (findings.length > 0) {
    const text = exchangeEntry(ex, max);
    out.push(attach('exchange', `${curlPreamble(text)}${text}\n`, 'text/plain', 'txt'), ...findingSteps(findings, stopOf(ex), true));
  }
  out.push({ type: 'step_stop', data: { stop: stopOf(ex), status } });
  return out;
}

/** The step of a webhook delivery; with a finding, the delivery attached (what the receiver answered, a replaying curl line) and the finding under it. */
function deliveryStep(d: DeliveryView, findings: Finding[]): AllureMessage[] {
  const at = Date.parse(d.receivedAt ?? '') || 0;
  const status: AllureStatus = findings.some(countsAsFailure) ? 'failed' : 'passed';
  const out: AllureMessage[] = [{ type: 'step_start', data: { name: deliveryName(d), start: at } }];
  if (findings.length > 0) out.push(attach('delivery', `${deliveryEntry(d)}\n`, 'text/plain', 'txt'), ...findingSteps(findings, at, false));
  out.push({ type: 'step_stop', data: { stop: at, status } });
  return out;
}

function description(t: TestRecord): string {
  const lines = [`**Clause:** \`${t.clause || '(none)'}\``, '', `**Outcome:** ${outcomeOf(t)}`];
  if (t.blockedBy)
    lines.push(
      '',
      `**Blocked by:** \`${t.blockedBy.check}\` (${t.blockedBy.clause}), first seen in "${t.blockedBy.test}": ${t.blockedBy.message}`,
    );
  else if (t.skipReason) lines.push('', `**Skipped:** ${t.skipReason}`);
  if (t.notFinished) lines.push('', `**Not finished:** ${t.notFinished}`);
  if (t.notChecked?.length)
    lines.push('', '**Not checked** (could not be observed, so neither passed nor failed):', '', ...t.notChecked.map((n) => `- ${n}`));
  if (t.repeats?.length)
    lines.push(
      '',
      '**Seen again (reported by an earlier test):**',
      '',
      ...t.repeats.map(
        (r) => `- ${r.severity === 'failure' ? 'FAIL' : 'WARN'} [${r.check}] ${r.message} (first in "${r.of}", ${r.count}x here)`,
      ),
    );
  if (t.toolkitError)
    lines.push(
      '',
      `**Toolkit error:** \`${t.toolkitError.code}\` ${t.toolkitError.message.split('\n')[0]}${t.toolkitError.hint ? ` (fix: ${t.toolkitError.hint})` : ''}`,
    );
  const failures = failuresOf(t);
  const warnings = warningsOf(t);
  if (failures.length + warnings.length > 0) {
    lines.push('', '**Findings:**', '');
    for (const { finding: f, followUps } of foldFindings([...failures, ...warnings])) {
      lines.push(
        `- ${f.severity === 'failure' ? 'FAIL' : 'WARN'} ${findingLine(f)}${f.confirmation ? ` (${confirmationText(f.confirmation)})` : ''}`,
        ...followUps.map((g) => `  - ${followUpLine(g)}`),
      );
    }
  }
  const known = knownOf(t);
  if (known.length > 0) {
    lines.push('', '**Known defects** (a baseline entry knows them: reported, they fail nothing):', '');
    for (const { finding: f, followUps } of foldFindings(known))
      lines.push(`- ${findingLine(f)}: ${knownText(f.known!)}`, ...followUps.map((g) => `  - ${followUpLine(g)}`));
  }
  return `${lines.join('\n')}\n`;
}

/** The runtime messages of one test. */
/** Manual mode: one step per thing the operator was asked to do, named by what they did. */
function operatorSteps(t: TestRecord): AllureMessage[] {
  const said: Record<OperatorEntry['verdict'], string> = {
    done: 'done',
    kept: 'kept an unexpected result',
    skip: 'skipped',
    redo: 'redid the step',
    abort: 'stopped the session',
  };
  return (t.operator ?? []).flatMap((o) => {
    const at = Date.parse(o.at) || 0;
    const end = o.final ? `, ended ${o.final}${o.expected && o.expected !== o.final ? ` (expected ${o.expected})` : ''}` : '';
    const status: AllureStatus = o.verdict === 'done' ? 'passed' : o.verdict === 'kept' ? 'failed' : 'skipped';
    return [
      { type: 'step_start', data: { name: `operator (attempt ${o.attempt}): ${o.instruction} -> ${said[o.verdict]}${end}`, start: at } },
      ...(o.setAside && o.setAside.length > 0
        ? [attach('findings set aside by the redo', o.setAside.join('\n'), 'text/plain', 'txt')]
        : []),
      { type: 'step_stop', data: { stop: at, status } },
    ] as AllureMessage[];
  });
}

export function allureMessagesFor(t: TestRecord, opts: AllureMessageOptions = {}): AllureMessage[] {
  const clauseUrl = opts.clauseUrl ?? defaultClauseUrl;
  const max = opts.maxBodyChars ?? 16_384;
  const clauses = [...new Set([t.clause, ...t.findings.map((f) => f.clause)].filter((c) => c !== ''))];
  const feature = featureOf(t, opts.endpoints);
  const labels = [
    { name: 'epic', value: t.capability },
    ...(feature ? [{ name: 'feature', value: feature }] : []),
    { name: 'story', value: scenarioOf(t) },
    ...clauses.map((c) => ({ name: 'tag', value: c })),
    { name: 'severity', value: severityOf(t) },
    { name: 'conformance', value: outcomeOf(t) },
  ];
  const messages: AllureMessage[] = [
    {
      type: 'metadata',
      data: {
        labels,
        links: clauses.map((c) => ({ name: c, url: clauseUrl(c), type: 'link' })),
        // The amount follows the seed: parameters must not split a test's history.
        parameters: Object.entries(t.parameters).map(([name, value]) => ({ name, value, excluded: true })),
        description: description(t),
      },
    },
  ];
  // The clause's own words beside a finding: Allure 3 shows only absolute links, so the text travels
  // with the test instead (a published spec can still be linked: PAYCONNECT_SPEC_BASE_URL). A test
  // without findings names its clause only (label, link name, description): the reports stay small.
  const withText = t.findings.length > 0 || t.state === 'failed' ? clauses : [];
  for (const c of withText) {
    const text = opts.clauseText?.(c);
    if (text) messages.push(attach(`clause ${c}`, text, 'text/plain', 'txt'));
  }
  const placed = new Set<Finding>();
  const events = eventsOf(t);
  const keep = opts.attachExchanges ?? { first: 5, last: 3 };
  const tmax = opts.transcriptBodyChars ?? 4096;
  const exchangeCount = events.filter((e) => e.kind === 'exchange').length;
  const steps: AllureMessage[] = [];
  const transcript: string[] = [];
  let between: Event[] = [];
  const flush = () => {
    if (between.length === 0) return;
    const name = `${runTitle(between)}, one line each in the "exchanges" attachment`;
    const status: AllureStatus = between.every((e) => e.kind !== 'exchange' || e.ex.response) ? 'passed' : 'broken';
    const last = between.at(-1)!;
    steps.push(
      { type: 'step_start', data: { name, start: between[0]!.at } },
      { type: 'step_stop', data: { stop: last.kind === 'exchange' ? stopOf(last.ex) : last.at, status } },
    );
    transcript.push(runLines(between));
    between = [];
  };
  events.forEach((e, index) => {
    const mine = t.findings.filter(
      (f) =>
        !placed.has(f) &&
        (e.kind === 'exchange' ? anchorOf(f).exchangeSeq === e.ex.seq : e.d.eventId !== undefined && anchorOf(f).eventId === e.d.eventId),
    );
    mine.forEach((f) => placed.add(f));
    if (mine.length === 0 && index >= keep.first && index < events.length - keep.last) {
      between.push(e);
      return;
    }
    flush();
    if (e.kind === 'exchange') {
      steps.push(...exchangeStep(e.ex, mine, max));
      transcript.push(exchangeEntry(e.ex, tmax));
    } else {
      steps.push(...deliveryStep(e.d, mine));
      transcript.push(deliveryEntry(e.d));
    }
  });
  flush();
  if (transcript.length > 0) {
    const deliveries = events.length - exchangeCount;
    const head = [
      `# ${exchangeCount} HTTP exchanges${deliveries > 0 ? ` and ${deliveries} webhook deliveries` : ''} of this test, in time order (secrets redacted).`,
      ...(events.length > keep.first + keep.last
        ? [`# In full: the first ${keep.first}, the last ${keep.last} and those a finding is about; the others one line each.`]
        : []),
    ].join('\n');
    const body = transcript.join('\n\n');
    messages.push(attach('exchanges', `${head}\n${curlPreamble(body)}\n${body}\n`, 'text/plain', 'txt'));
  }
  messages.push(...steps, ...operatorSteps(t));
  const rest = t.findings.filter((f) => !placed.has(f));
  const end = events.length > 0 ? Math.max(...events.map((e) => e.at)) : Date.parse(t.startedAt ?? '') || 0;
  messages.push(...findingSteps(rest, end, false));
  return messages;
}
