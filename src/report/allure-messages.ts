/**
 * The Allure picture of one test, as allure-js runtime messages: labels (epic = capability, feature =
 * endpoint, story = scenario, tag = clause, severity), parameters, a link per clause, and one step per
 * HTTP exchange and per webhook delivery with its request, response and a curl line attached. Pure:
 * it reads a redacted TestRecord and returns data; the Allure reporter hands it to allure-vitest.
 */
import type { Exchange, Finding } from '../core/index.ts';
import { curlForDelivery, curlForExchange, curlPreamble } from './curl.ts';
import { clauseSource, findingLine, outcomeOf, scenarioOf, warningsOf, failuresOf } from './outcome.ts';
import type { DeliveryView, TestRecord } from './records.ts';

/** Allure's step and test statuses. */
export type AllureStatus = 'passed' | 'failed' | 'broken' | 'skipped';

/** The allure-js runtime messages this module produces (a subset of allure-js-commons' RuntimeMessage). */
export type AllureMessage =
  | { type: 'metadata'; data: { labels?: { name: string; value: string }[]; links?: { name?: string; url: string; type?: string }[]; parameters?: { name: string; value: string; excluded?: boolean }[]; description?: string } }
  | { type: 'step_start'; data: { name: string; start: number } }
  | { type: 'step_stop'; data: { stop: number; status: AllureStatus; statusDetails?: { message?: string } } }
  | { type: 'attachment_content'; data: { name: string; content: string; encoding: 'base64'; contentType: string; fileExtension?: string; wrapInStep: false } };

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
  /** The text of a clause (its section of the spec, profile or sandbox document), attached to each test it concerns. */
  clauseText?: (clause: string) => string | undefined;
  /** Attachment bodies longer than this are cut. @default 65536 */
  maxBodyChars?: number;
  /**
   * A long test (a fuzz run of hundreds of requests) keeps the attachments of its first and last
   * exchanges and of every exchange with a finding; the others are steps without attachments.
   * @default { first: 50, last: 10 }
   */
  attachExchanges?: { first: number; last: number };
}

/** The documents the clause sources live in. */
const CLAUSE_DOCUMENTS: Record<string, string> = { spec: 'pay-connect-spec.md', profile: 'public-profile.md', sandbox: 'sandbox.md' };

/** `spec#x` -> `<base>pay-connect-spec.md#x` (and profile, sandbox alike); `base` ends with `/`. */
export function clauseUrlFrom(base: string): (clause: string) => string {
  return (clause) => {
    const [source = '', anchor = ''] = clause.split('#');
    return `${base}${CLAUSE_DOCUMENTS[source] ?? `${source}.md`}${anchor ? `#${anchor}` : ''}`;
  };
}

/**
 * Clause links relative to the report (`spec/pay-connect-spec.md#...`): Allure 3 shows them as names
 * only, and the clause's text is attached instead; PAYCONNECT_SPEC_BASE_URL makes them real links.
 */
export const defaultClauseUrl = clauseUrlFrom('spec/');

/** The anchor a Markdown heading gets (GitHub's rule): `POST /v1/a/{id}/` -> `post-v1aidj`. */
export function headingAnchor(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

/** The endpoint a test is about: the one its clause's heading names, else its first non-setup request. */
export function featureOf(t: TestRecord, endpoints: readonly EndpointRef[] = []): string | undefined {
  const anchor = t.clause.split('#')[1];
  const byClause = endpoints.find((e) => headingAnchor(`${e.method} ${e.path}`) === anchor);
  if (byClause) return byClause.operationId;
  const ops = (t.exchanges as Partial<Exchange>[]).map((e) => e.operationId).filter((o): o is string => typeof o === 'string');
  return ops.find((o) => o !== 'pair' && o !== 'getToken') ?? ops[0];
}

const RANK = ['trivial', 'minor', 'normal', 'critical', 'blocker'];

/**
 * The test's severity label. With findings, the gravest one decides: a failed spec clause is
 * critical, another failure (a profile or sandbox rule under --strict) normal, a warning minor. A test
 * without findings takes its clause's: spec critical, profile normal, sandbox minor.
 */
export function severityOf(t: TestRecord): string {
  if (t.findings.length > 0) {
    const of = (f: TestRecord['findings'][number]) => (f.severity !== 'failure' ? 'minor' : clauseSource(f.clause) === 'spec' ? 'critical' : 'normal');
    return t.findings.map(of).reduce((a, b) => (RANK.indexOf(b) > RANK.indexOf(a) ? b : a));
  }
  return { spec: 'critical', profile: 'normal', sandbox: 'minor' }[clauseSource(t.clause)] ?? 'normal';
}

const encode = (s: string) => Buffer.from(s, 'utf8').toString('base64');

function attach(name: string, content: string, contentType: string, fileExtension: string): AllureMessage {
  return { type: 'attachment_content', data: { name, content: encode(content), encoding: 'base64', contentType, fileExtension, wrapInStep: false } };
}

function cut(value: unknown, max: number): unknown {
  if (typeof value === 'string' && value.length > max) return `${value.slice(0, max)}… (${value.length} chars)`;
  if (value !== undefined && typeof value === 'object') {
    const text = JSON.stringify(value);
    if (text !== undefined && text.length > max) return `${text.slice(0, max)}… (${text.length} chars, cut)`;
  }
  return value;
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

type Event = { at: number; seq: number; kind: 'exchange'; ex: Partial<Exchange> } | { at: number; seq: number; kind: 'delivery'; d: DeliveryView };

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

function findingSteps(findings: Finding[], at: number, dropExchange: boolean): AllureMessage[] {
  const out: AllureMessage[] = [];
  for (const f of findings) {
    const failure = f.severity === 'failure';
    const name = `${failure ? 'FAIL' : 'WARN'} ${findingLine(f)}`;
    out.push({ type: 'step_start', data: { name: name.length > 300 ? `${name.slice(0, 299)}…` : name, start: at } });
    let evidence = f.evidence;
    if (dropExchange && evidence && typeof evidence === 'object' && 'exchange' in evidence) {
      const { exchange: _exchange, ...rest } = evidence as Record<string, unknown>;
      evidence = rest;
    }
    out.push(attach('finding', json({ check: f.check, severity: f.severity, clause: f.clause, message: f.message, evidence: evidence ?? null }), 'application/json', 'json'));
    out.push({ type: 'step_stop', data: { stop: at, status: failure ? 'failed' : 'passed', ...(failure ? { statusDetails: { message: f.message } } : {}) } });
  }
  return out;
}

function exchangeStep(ex: Partial<Exchange>, findings: Finding[], max: number, attachments: boolean): AllureMessage[] {
  const req = ex.request!;
  const start = Date.parse(ex.startedAt ?? '') || 0;
  const stop = start + Math.round(ex.durationMs ?? 0);
  const answer = ex.response ? String(ex.response.status) : (ex.error?.code ?? 'no answer');
  const name = `${req.method} ${req.path} → ${answer}${ex.operationId ? ` (${ex.operationId})` : ''}`;
  const status: AllureStatus = findings.some((f) => f.severity === 'failure') ? 'failed' : ex.response ? 'passed' : 'broken';
  if (!attachments) return [{ type: 'step_start', data: { name, start } }, { type: 'step_stop', data: { stop, status } }];
  const curl = curlForExchange({ request: req });
  return [
    { type: 'step_start', data: { name, start } },
    attach('request', json({ method: req.method, url: req.url, headers: req.headers, ...(req.body === undefined ? {} : { body: cut(req.body, max) }) }), 'application/json', 'json'),
    ex.response
      ? attach('response', json({ status: ex.response.status, headers: ex.response.headers, body: ex.response.body !== undefined ? cut(ex.response.body, max) : cut(ex.response.rawBody ?? '', max) }), 'application/json', 'json')
      : attach('error', json(ex.error ?? { message: 'no response' }), 'application/json', 'json'),
    attach('curl', `${curlPreamble(curl)}${curl}\n`, 'text/plain', 'sh'),
    ...findingSteps(findings, stop, true),
    { type: 'step_stop', data: { stop, status } },
  ];
}

function deliveryStep(d: DeliveryView, findings: Finding[], max: number): AllureMessage[] {
  const at = Date.parse(d.receivedAt ?? '') || 0;
  const flags = [`signature ${d.signature ?? '?'}`, ...(d.duplicate ? ['duplicate'] : []), ...(d.failedOnPurpose ? ['answered 500 on purpose'] : [])];
  const name = `webhook ${d.event ?? '(no event)'} #${d.seq ?? '?'} → ${d.status ?? '?'} (${flags.join(', ')})`;
  const curl = curlForDelivery(d);
  const status: AllureStatus = findings.some((f) => f.severity === 'failure') ? 'failed' : 'passed';
  return [
    { type: 'step_start', data: { name, start: at } },
    attach('request', json({ method: d.method ?? 'POST', url: d.url ?? d.path, headers: d.headers ?? {}, body: d.body !== undefined ? cut(d.body, max) : cut(d.rawBody ?? '', max) }), 'application/json', 'json'),
    attach('response', json({ status: d.status ?? null, receiver: { signature: d.signature, duplicate: d.duplicate ?? false, eventId: d.eventId ?? null, pairing: d.pairing ?? null } }), 'application/json', 'json'),
    attach('curl', `# replays the delivery to the run's receiver (gone after the run: change the URL)\n${curl}\n`, 'text/plain', 'sh'),
    ...findingSteps(findings, at, false),
    { type: 'step_stop', data: { stop: at, status } },
  ];
}

function description(t: TestRecord): string {
  const lines = [`**Clause:** \`${t.clause || '(none)'}\``, '', `**Outcome:** ${outcomeOf(t)}`];
  if (t.blockedBy) lines.push('', `**Blocked by:** \`${t.blockedBy.check}\` (${t.blockedBy.clause}), first seen in "${t.blockedBy.test}": ${t.blockedBy.message}`);
  else if (t.skipReason) lines.push('', `**Skipped:** ${t.skipReason}`);
  if (t.notFinished) lines.push('', `**Not finished:** ${t.notFinished}`);
  if (t.repeats?.length) lines.push('', '**Seen again (reported by an earlier test):**', '', ...t.repeats.map((r) => `- ${r.severity === 'failure' ? 'FAIL' : 'WARN'} [${r.check}] ${r.message} (first in "${r.of}", ${r.count}x here)`));
  if (t.toolkitError) lines.push('', `**Toolkit error:** \`${t.toolkitError.code}\` ${t.toolkitError.message.split('\n')[0]}${t.toolkitError.hint ? ` (fix: ${t.toolkitError.hint})` : ''}`);
  const failures = failuresOf(t);
  const warnings = warningsOf(t);
  if (failures.length + warnings.length > 0) {
    lines.push('', '**Findings:**', '');
    for (const f of [...failures, ...warnings]) lines.push(`- ${f.severity === 'failure' ? 'FAIL' : 'WARN'} ${findingLine(f)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The runtime messages of one test. */
export function allureMessagesFor(t: TestRecord, opts: AllureMessageOptions = {}): AllureMessage[] {
  const clauseUrl = opts.clauseUrl ?? defaultClauseUrl;
  const max = opts.maxBodyChars ?? 65_536;
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
  const messages: AllureMessage[] = [{
    type: 'metadata',
    data: {
      labels,
      links: clauses.map((c) => ({ name: c, url: clauseUrl(c), type: 'link' })),
      // The amount follows the seed: parameters must not split a test's history.
      parameters: Object.entries(t.parameters).map(([name, value]) => ({ name, value, excluded: true })),
      description: description(t),
    },
  }];
  // The clause's own words beside the verdict: Allure 3 shows only absolute links, so the text
  // travels with the test instead (a published spec can still be linked: PAYCONNECT_SPEC_BASE_URL).
  for (const c of clauses) {
    const text = opts.clauseText?.(c);
    if (text) messages.push(attach(`clause ${c}`, text, 'text/plain', 'txt'));
  }
  const placed = new Set<Finding>();
  const events = eventsOf(t);
  const keep = opts.attachExchanges ?? { first: 50, last: 10 };
  const exchangeCount = events.filter((e) => e.kind === 'exchange').length;
  let index = 0;
  let bare = 0;
  for (const e of events) {
    if (e.kind === 'exchange') {
      const mine = t.findings.filter((f) => !placed.has(f) && anchorOf(f).exchangeSeq === e.ex.seq);
      mine.forEach((f) => placed.add(f));
      const attach = mine.length > 0 || index < keep.first || index >= exchangeCount - keep.last;
      if (!attach) bare++;
      index++;
      messages.push(...exchangeStep(e.ex, mine, max, attach));
    } else {
      const mine = t.findings.filter((f) => !placed.has(f) && e.d.eventId !== undefined && anchorOf(f).eventId === e.d.eventId);
      mine.forEach((f) => placed.add(f));
      messages.push(...deliveryStep(e.d, mine, max));
    }
  }
  const rest = t.findings.filter((f) => !placed.has(f));
  const end = events.length > 0 ? Math.max(...events.map((e) => e.at)) : Date.parse(t.startedAt ?? '') || 0;
  messages.push(...findingSteps(rest, end, false));
  if (bare > 0) {
    const name = `${bare} of ${exchangeCount} exchanges shown without attachments (kept: the first ${keep.first}, the last ${keep.last} and those with a finding)`;
    messages.push({ type: 'step_start', data: { name, start: end } }, { type: 'step_stop', data: { stop: end, status: 'passed' } });
  }
  return messages;
}
