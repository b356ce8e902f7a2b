/** Unit tests of coverage.json: the sections, the reasons, the exact merge, and the worker's digest it is built from. */
import { describe, expect, it } from 'vitest';
import { type CoverageDigest, type Exchange, emptyCoverageDigest, enumFieldsOf } from '../core/index.ts';
import { operations } from '../generated/contract.ts';
import { CoverageRecorder, requestClasses } from '../runtime/scope.ts';
import {
  type CoverageInfo,
  REQUIRABLE_COVERAGE_KINDS,
  buildCoverage,
  checkCoverageExclusions,
  coverageLine,
  coverageMarkdown,
  digestOf,
  excludedItems,
  itemMatches,
  mergeCoverage,
  specClauses,
  uncoveredItems,
} from './coverage.ts';
import { COVERAGE_REQUIRABLE } from '../config/types.ts';
import type { TestRecord } from './records.ts';

const info = (over: Partial<CoverageInfo> = {}): CoverageInfo => ({
  target: { kind: 'sim' },
  profile: 'sandbox',
  suitesSelected: [],
  checksDisabled: [],
  ...over,
});
const digest = (over: Partial<CoverageDigest>): CoverageDigest => ({ ...emptyCoverageDigest(), ...over });
const rec = (name: string, coverage: CoverageDigest | undefined, over: Partial<TestRecord> = {}): TestRecord => ({
  name,
  capability: name.split(' > ')[0]!,
  clause: '',
  file: 'f',
  state: 'passed',
  durationMs: 1,
  findings: [],
  errors: [],
  parameters: {},
  exchanges: [],
  exchangeCount: 0,
  ...(coverage ? { coverage } : {}),
  ...over,
});
const find = <T>(list: T[], pred: (x: T) => boolean): T => {
  const hit = list.find(pred);
  expect(hit).toBeDefined();
  return hit!;
};

const payment = rec(
  'payment > approve',
  digest({
    calls: ['generateTransaction 200', 'getTransactionStatus 200', 'getTransactionStatus 429'],
    enums: ['TransactionRecord.status=SUCCESS', 'TransactionEvent.data.status=SUCCESS'],
    transitions: [
      'transaction INITIATED>IN_PROGRESS poll',
      'transaction INITIATED>IN_PROGRESS webhook',
      'transaction IN_PROGRESS>SUCCESS webhook',
      'transaction INITIATED>SUCCESS poll',
    ],
    events: ['transaction.success valid', 'transaction.in_progress invalid'],
    checks: {
      'response.schema': { clause: 'spec#resources-and-their-fields', pass: 3 },
      'transition.legal': { clause: 'sandbox#transactions', pass: 1, skip: 1 },
    },
    inputs: ['valid generateTransaction', 'boundary generateTransaction amount minimum'],
  }),
  { clause: 'sandbox#transactions' },
);
const probes = rec(
  'auth > probes',
  digest({
    calls: ['getConfig 401', 'getToken 200', 'getTransactionStatus 200'],
    transitions: ['transaction IN_PROGRESS>SUCCESS poll'],
    checks: { 'auth.bearer-required': { clause: 'spec#authentication', fail: 1 } },
    inputs: ['invalid generateTransaction type /amount', 'probe getConfig bearer none'],
  }),
  { state: 'failed', findings: [{ check: 'auth.bearer-required', severity: 'failure', clause: 'spec#authentication', message: 'm' }] },
);
const skipped = rec('config > skipped', digest({ calls: ['unpair 200'] }), { state: 'skipped', clause: 'spec#limits' });

describe('buildCoverage', () => {
  const c = buildCoverage({ tests: [payment, probes, skipped] }, info());

  it('lists every operation of the contract, called or not, with the tests that called it', () => {
    expect(c.operations.map((o) => o.operationId)).toEqual(operations.map((o) => o.operationId).sort());
    expect(find(c.operations, (o) => o.operationId === 'getTransactionStatus')).toMatchObject({
      covered: true,
      tests: ['auth > probes', 'payment > approve'],
    });
    expect(find(c.operations, (o) => o.operationId === 'pair')).toMatchObject({ covered: false, reason: 'not exercised', tests: [] });
    expect(c.summary.operations).toEqual({
      covered: 5,
      total: operations.length,
      percent: Math.round((500 / operations.length) * 10) / 10,
    });
  });

  it('lists documented statuses seen or not, and undocumented ones seen (not counted in the summary)', () => {
    expect(find(c.statuses, (s) => s.operationId === 'getConfig' && s.status === '401')).toMatchObject({ documented: true, covered: true });
    expect(find(c.statuses, (s) => s.operationId === 'getTransactionStatus' && s.status === '429')).toMatchObject({
      documented: false,
      covered: true,
    });
    const documented = operations.reduce((n, o) => n + Object.keys(o.responses).length, 0);
    expect(c.summary.statuses).toMatchObject({ covered: 5, total: documented });
    expect(uncoveredItems(c, ['statuses']).some((u) => u.item === 'getTransactionStatus 429')).toBe(false);
  });

  it('says so when another documented success status of the operation was answered', () => {
    const unpair = buildCoverage({ tests: [rec('pairing > unpair', digest({ calls: ['unpair 200'] }))] }, info());
    expect(find(unpair.statuses, (s) => s.operationId === 'unpair' && s.status === '204').reason).toMatch(
      /^not reachable on this target: it answered unpair with 200/,
    );
  });

  it('lists each enum value of each response and webhook field, seen or not, and no request field', () => {
    expect(find(c.enums, (e) => e.schema === 'TransactionRecord' && e.field === 'status' && e.value === 'SUCCESS')).toMatchObject({
      covered: true,
      tests: 1,
    });
    expect(find(c.enums, (e) => e.schema === 'TransactionEvent' && e.field === 'data.status' && e.value === 'EXPIRED').covered).toBe(false);
    expect(c.enums.some((e) => e.schema === 'TokenRequest')).toBe(false);
    expect(c.enums.some((e) => e.schema === 'PrintSlip' && e.field === 'tags[]' && e.value === 'refund')).toBe(true);
  });

  it('marks each edge of the graphs by polling, webhook, both or none, and drops statuses no edge joins', () => {
    // INITIATED then FAILED by polling may have passed IN_PROGRESS unseen: no evidence of the edge.
    const skipped = buildCoverage(
      { tests: [rec('a > b', digest({ transitions: ['transaction INITIATED>FAILED poll', 'transaction INITIATED>CANCELED webhook'] }))] },
      info(),
    );
    expect(find(skipped.transitions, (t) => t.from === 'INITIATED' && t.to === 'FAILED')).toMatchObject({ by: 'none', polling: 0 });
    expect(find(skipped.transitions, (t) => t.from === 'INITIATED' && t.to === 'CANCELED')).toMatchObject({ by: 'webhook', webhook: 1 });
    expect(find(c.transitions, (t) => t.graph === 'transaction' && t.from === 'INITIATED' && t.to === 'IN_PROGRESS')).toMatchObject({
      by: 'both',
      polling: 1,
      webhook: 1,
    });
    expect(find(c.transitions, (t) => t.graph === 'transaction' && t.from === 'IN_PROGRESS' && t.to === 'SUCCESS')).toMatchObject({
      by: 'both',
      polling: 1,
      webhook: 1,
    });
    expect(find(c.transitions, (t) => t.from === 'SUCCESS' && t.to === 'REVERTED')).toMatchObject({ by: 'none', covered: false });
    expect(c.transitions.some((t) => t.from === 'INITIATED' && t.to === 'SUCCESS')).toBe(false);
    expect(c.transitions.some((t) => t.graph === 'operation' && t.from === 'INITIATED' && t.to === 'IN_PROGRESS')).toBe(true);
  });

  it('counts an event type covered only when delivered with a valid signature', () => {
    expect(find(c.events, (e) => e.event === 'transaction.success')).toMatchObject({
      covered: true,
      validlySigned: true,
      deliveries: { valid: 1 },
    });
    expect(find(c.events, (e) => e.event === 'transaction.in_progress')).toMatchObject({
      covered: false,
      deliveries: { invalid: 1 },
      reason: 'not exercised',
    });
    expect(c.events.some((e) => e.event.startsWith('operation.'))).toBe(true);
  });

  it('lists each clause of the documents with the checks that ran for it and their results', () => {
    expect(c.clauses.filter((k) => k.documented).map((k) => k.clause)).toEqual(specClauses());
    expect(find(c.clauses, (k) => k.clause === 'sandbox#transactions')).toMatchObject({
      covered: true,
      checks: { 'transition.legal': { pass: 1, skip: 1 } },
      tests: ['payment > approve'],
    });
    expect(find(c.clauses, (k) => k.clause === 'spec#authentication')).toMatchObject({
      covered: true,
      checks: { 'auth.bearer-required': { fail: 1 } },
      findings: { 'auth.bearer-required': 1 },
    });
    // A skipped test ran nothing for its clause; a call covers the section of its endpoint.
    expect(find(c.clauses, (k) => k.clause === 'spec#limits').covered).toBe(false);
    expect(find(c.clauses, (k) => k.clause === 'spec#post-v1pay-connecttransactionsgenerate')).toMatchObject({
      covered: true,
      tests: ['payment > approve'],
    });
  });

  it('lists the request classes sent, an expected class covered by any of its kind', () => {
    expect(find(c.inputs, (i) => i.class === 'invalid generateTransaction')).toMatchObject({ expected: true, covered: true });
    expect(find(c.inputs, (i) => i.class === 'invalid pair')).toMatchObject({ expected: true, covered: false });
    expect(find(c.inputs, (i) => i.class === 'boundary generateTransaction amount minimum')).toMatchObject({
      expected: false,
      covered: true,
      tests: 1,
    });
    expect(find(c.inputs, (i) => i.class === 'probe getConfig bearer none').covered).toBe(true);
  });
});

describe('the reasons of what was not covered', () => {
  it('names the target, a setting, or what the tests could not observe', () => {
    const pact = buildCoverage({ tests: [payment] }, info({ target: { kind: 'pact' }, suitesSelected: ['auth', 'payment'] }));
    expect(find(pact.transitions, (t) => t.from === 'SUCCESS').reason).toMatch(/^not reachable on this target: the Pact mock/);
    expect(find(pact.operations, (o) => o.operationId === 'pair').reason).toBe(
      'not reachable on this target: the Pact mock runs the suites auth, payment',
    );
    const some = buildCoverage({ tests: [payment] }, info({ suitesSelected: ['payment'] }));
    expect(find(some.operations, (o) => o.operationId === 'pair').reason).toBe('skipped by a setting: only the suites payment');
    const blind = buildCoverage(
      { tests: [rec('a > b', digest({}), { notChecked: ["webhooks: the vault pairing's webhook_url is not this run's receiver"] })] },
      info(),
    );
    expect(find(blind.events, (e) => e.event === 'transaction.success').reason).toBe(
      "not reachable on this target: webhooks: the vault pairing's webhook_url is not this run's receiver",
    );
    expect(find(blind.operations, (o) => o.operationId === 'pair').reason).toBe('not exercised');
    const off = buildCoverage(
      { tests: [rec('a > b', digest({ checks: { 'webhook.retried': { clause: 'profile#webhooks', disabled: 2 } } }))] },
      info({ checksDisabled: ['webhook.retried'] }),
    );
    expect(find(off.clauses, (k) => k.clause === 'profile#webhooks')).toMatchObject({
      covered: false,
      reason: 'skipped by a setting: checks disabled (webhook.retried)',
    });
  });
});

describe('mergeCoverage', () => {
  const tests = [
    payment,
    probes,
    skipped,
    rec('webhooks > x', digest({ events: ['operation.success valid'], calls: ['getOperation 404'] }), { notChecked: ['webhooks: z'] }),
  ];

  it('is exact: the coverage of two parts merged is that of the whole, whichever way it is cut or ordered', () => {
    const whole = buildCoverage({ tests }, info());
    for (const cut of [0, 1, 2, 3, 4]) {
      const [a, b] = [tests.slice(0, cut), tests.slice(cut)];
      expect(mergeCoverage(buildCoverage({ tests: a }, info()), buildCoverage({ tests: b }, info())), `cut ${cut}`).toEqual(whole);
      expect(mergeCoverage(buildCoverage({ tests: b }, info()), buildCoverage({ tests: a }, info())), `cut ${cut}, reversed`).toEqual(
        whole,
      );
    }
    expect(buildCoverage({ tests: [...tests].reverse() }, info())).toEqual(whole);
    expect(whole.context.tests).toBe(4);
  });

  it('survives JSON (coverage.json read back merges the same)', () => {
    const [a, b] = [buildCoverage({ tests: tests.slice(0, 2) }, info()), buildCoverage({ tests: tests.slice(2) }, info())];
    const back = (x: unknown) => JSON.parse(JSON.stringify(x)) as typeof a;
    expect(mergeCoverage(back(a), back(b))).toEqual(buildCoverage({ tests }, info()));
  });
});

describe('digestOf', () => {
  it("is the worker's digest when there is one", () => {
    expect(digestOf(payment)).toBe(payment.coverage);
  });

  it('else reads what the record kept: exchanges, deliveries, findings', () => {
    const ex: Partial<Exchange> = {
      operationId: 'getTransactionStatus',
      response: { status: 200, headers: {}, body: { status: 'DECLINED', tags: ['charge'] } },
    };
    const d = digestOf(
      rec('webhooks > the service sends webhooks', undefined, {
        exchanges: [ex],
        deliveries: [{ event: 'transaction.declined', signature: 'valid' } as never],
        findings: [{ check: 'webhook.service-sends', severity: 'failure', clause: 'spec#events', message: 'none' }],
      }),
    );
    expect(d).toEqual(
      digest({
        calls: ['getTransactionStatus 200'],
        enums: ['TransactionRecord.status=DECLINED', 'TransactionRecord.tags[]=charge'],
        events: ['transaction.declined valid'],
        checks: { 'webhook.service-sends': { clause: 'spec#events', fail: 1 } },
      }),
    );
  });
});

describe('the views of coverage', () => {
  const c = buildCoverage({ tests: [payment, probes] }, info());

  it('coverageLine gives every kind in one line', () => {
    expect(coverageLine(c)).toMatch(
      new RegExp(
        String.raw`^coverage: operations 4/15, statuses \d+/\d+ \(a 2xx of \d+/\d+ operations\), enums \d+/\d+, ` +
          String.raw`transitions \d+/\d+, events 1/13, clauses \d+/\d+, inputs \d+/\d+$`,
      ),
    );
  });

  it('uncoveredItems names what of the kinds asked was never covered, with why', () => {
    const ops = uncoveredItems(c, ['operations']);
    expect(ops.map((u) => u.item)).toEqual(
      operations
        .map((o) => o.operationId)
        .filter((o) => !['generateTransaction', 'getConfig', 'getToken', 'getTransactionStatus'].includes(o))
        .sort(),
    );
    expect(ops.every((u) => u.kind === 'operations' && u.reason === 'not exercised')).toBe(true);
    expect(uncoveredItems(c, ['events']).map((u) => u.item)).not.toContain('transaction.success');
    expect(uncoveredItems(c, [])).toEqual([]);
  });

  it('coverageMarkdown has the table and what was never seen, by reason', () => {
    const md = coverageMarkdown(c);
    expect(md).toMatch(/^## Coverage\n/);
    expect(md).toContain('| operations | 4 | 0 | 15 | 26.7 % |');
    expect(md).toContain('| a documented 2xx, by operation |');
    expect(md).toMatch(/- \*\*operations\*\* \(11\), not exercised: `cancelTransaction`/);
  });
});

describe("the worker's digest (runtime/scope.ts)", () => {
  it('classes request bodies: valid, the kind of invalid, not JSON, boundary amounts', () => {
    const generate = operations.find((o) => o.operationId === 'generateTransaction')!;
    expect(requestClasses(generate, { amount: 1 }, [1, 99])).toEqual([
      'valid generateTransaction',
      'boundary generateTransaction amount minimum',
    ]);
    expect(requestClasses(generate, { amount: 100 }, [1, 99])).toEqual([
      expect.stringMatching(/^(valid|invalid) generateTransaction/),
      'boundary generateTransaction amount above maximum',
    ]);
    expect(requestClasses(generate, { amount: '5' }, [1, 99])).toEqual(['invalid generateTransaction type /amount']);
    expect(requestClasses(generate, '{nope', [1, 99])).toEqual(['invalid generateTransaction not-json']);
    expect(
      requestClasses(
        operations.find((o) => o.operationId === 'getConfig')!,
        undefined,
        [1, 99],
      ),
    ).toEqual(['valid getConfig']);
  });

  it('keeps keys only: answers, enum values, transitions by channel, events, check tallies', () => {
    const r = new CoverageRecorder();
    const ex = {
      seq: 1,
      operationId: 'getTransactionStatus',
      request: { method: 'GET', url: 'u', path: '/p', headers: {} },
      response: { status: 200, headers: {}, body: { transaction_id: 'tx-secret-1', status: 'SUCCESS' } },
      startedAt: '',
      durationMs: 1,
    };
    r.exchange(ex, [1, 99]);
    r.exchange({ ...ex, response: undefined }, [1, 99]);
    r.delivery({ event: 'transaction.success', signature: 'valid', body: { event: 'transaction.success', data: { status: 'SUCCESS' } } });
    r.convergence({
      kind: 'transaction',
      id: 'tx-secret-1',
      polled: [
        { status: 'INITIATED', channel: 'poll', atMs: 0 },
        { status: 'SUCCESS', channel: 'poll', atMs: 1 },
      ],
      webhooks: [
        { status: 'IN_PROGRESS', channel: 'webhook', atMs: 0 },
        { status: 'IN_PROGRESS', channel: 'webhook', atMs: 0 },
        { status: 'SUCCESS', channel: 'webhook', atMs: 1 },
      ],
      webhooksObservable: true,
      deadlineMs: 1,
      elapsedMs: 1,
      timedOut: false,
    });
    r.tally('response.schema', 'spec#x', 'pass');
    r.tally('response.schema', 'spec#x', 'pass');
    r.tally('webhook.retried', 'profile#webhooks', 'disabled');
    const d = r.digest();
    expect(d).toEqual({
      calls: ['getTransactionStatus -', 'getTransactionStatus 200'],
      enums: ['TransactionEvent.data.status=SUCCESS', 'TransactionEvent.event=transaction.success', 'TransactionRecord.status=SUCCESS'],
      transitions: ['transaction INITIATED>SUCCESS poll', 'transaction IN_PROGRESS>SUCCESS webhook'],
      events: ['transaction.success valid'],
      checks: { 'response.schema': { clause: 'spec#x', pass: 2 }, 'webhook.retried': { clause: 'profile#webhooks', disabled: 1 } },
      inputs: ['valid getTransactionStatus'],
    });
    expect(JSON.stringify(d)).not.toContain('tx-secret-1');
  });

  it('takes a transition from the statuses posted one after the other for the same id, validly signed only', () => {
    const r = new CoverageRecorder();
    const post = (status: string, signature = 'valid', id = 'tx-1') =>
      r.delivery({ event: `transaction.${status.toLowerCase()}`, signature, body: { data: { transaction_id: id, status } } });
    post('SUCCESS');
    post('FAILED', 'invalid');
    post('IN_PROGRESS', 'valid', 'tx-2');
    post('REVERTED');
    expect(r.digest().transitions).toEqual(['transaction SUCCESS>REVERTED webhook']);
  });

  it('finds enum fields through refs, arrays and alternatives', () => {
    const fields = enumFieldsOf({
      S: {
        properties: {
          a: { $ref: 'E.json' },
          b: { type: 'array', items: { $ref: 'E.json' } },
          c: { oneOf: [{ $ref: 'E.json' }, { type: 'null' }] },
          d: { properties: { e: { enum: ['x'] } } },
        },
      },
      E: { enum: ['Z', 'Y'] },
    });
    expect(fields.map((f) => `${f.schema}.${f.path}:${f.values.join('|')}`)).toEqual(['S.a:Y|Z', 'S.b[]:Y|Z', 'S.c:Y|Z', 'S.d.e:x']);
  });
});

describe('the coverage kinds a run may require', () => {
  it('are the same in the config (--require-coverage) and the report', () => {
    expect([...COVERAGE_REQUIRABLE]).toEqual([...REQUIRABLE_COVERAGE_KINDS]);
  });
});

describe('clauses are clauses', () => {
  it("a document's title is not a clause; its sections are", () => {
    const clauses = specClauses();
    for (const title of [
      'spec#terminal-payment-integration-service-specification',
      'profile#pay-connect-public-profile-what-fills-the-gaps-of-the-spec',
      'sandbox#the-pay-connect-sandbox-profile',
    ]) {
      expect(clauses).not.toContain(title);
    }
    expect(clauses).toEqual(expect.arrayContaining(['spec#versioning', 'spec#token-result', 'sandbox#pairing', 'profile#webhooks']));
  });

  it('an answer judged against its schema covers the section that defines the schema (spec#token-result for a token)', () => {
    const token = rec(
      'auth > token',
      digest({ calls: ['getToken 200'], checks: { 'response.schema': { clause: 'spec#resources-and-their-fields', pass: 1 } } }),
    );
    const c = buildCoverage({ tests: [token] }, info());
    expect(find(c.clauses, (k) => k.clause === 'spec#token-result')).toMatchObject({ covered: true, tests: ['auth > token'] });
    // Not judged against the schema (the check disabled): the section was not exercised.
    const unjudged = buildCoverage(
      {
        tests: [
          rec(
            'auth > token',
            digest({ calls: ['getToken 200'], checks: { 'response.schema': { clause: 'spec#resources-and-their-fields', disabled: 1 } } }),
          ),
        ],
      },
      info(),
    );
    expect(find(unjudged.clauses, (k) => k.clause === 'spec#token-result').covered).toBe(false);
  });
});

describe('coverage.exclude: what the gate does not require', () => {
  const exclude = [
    { item: 'getToken 500', reason: 'a server error cannot be caused from outside' },
    { item: '*.tags[]=overpaid', reason: 'the sandbox has no overpayment' },
    { item: 'operation INITIATED -> FAILED', reason: "the sandbox's operations pass IN_PROGRESS" },
    { item: 'spec#versioning', reason: 'nothing to observe' },
  ];
  const c = buildCoverage({ tests: [payment, probes] }, info({ coverageExclude: exclude }));

  it('an excluded item stays not covered, with why, and is not uncovered', () => {
    expect(find(c.statuses, (s) => s.operationId === 'getToken' && s.status === '500')).toMatchObject({
      covered: false,
      reason: 'not exercised',
      excluded: { by: 'getToken 500', reason: 'a server error cannot be caused from outside' },
    });
    const uncovered = uncoveredItems(c).map((u) => u.item);
    for (const gone of [
      'getToken 500',
      'PrintSlip.tags[]=overpaid',
      'TransactionRecord.tags[]=overpaid',
      'operation INITIATED → FAILED',
      'spec#versioning',
    ])
      expect(uncovered).not.toContain(gone);
    expect(uncovered).toContain('getPrintSlip 500');
    expect(uncovered).toContain('PrintSlip.tags[]=underpaid');
  });

  it('lists what was excluded, by which entry and why, and counts it in the summary', () => {
    const ex = excludedItems(c);
    expect(ex).toContainEqual({
      kind: 'enums',
      item: 'TransactionEvent.data.tags[]=overpaid',
      reason: 'not exercised',
      by: '*.tags[]=overpaid',
      excludedBecause: 'the sandbox has no overpayment',
    });
    expect(ex.filter((e) => e.by === '*.tags[]=overpaid')).toHaveLength(3);
    expect(c.summary.enums.excluded).toBe(3);
    expect(c.summary.transitions.excluded).toBe(1);
    expect(c.summary.operations.excluded).toBeUndefined();
    expect(c.context.exclude?.map((e) => e.item)).toEqual([
      '*.tags[]=overpaid',
      'getToken 500',
      'operation INITIATED -> FAILED',
      'spec#versioning',
    ]);
    expect(coverageLine(c)).toMatch(/enums \d+\/\d+ \+ 3 excluded, transitions \d+\/\d+ \+ 1 excluded/);
    const md = coverageMarkdown(c);
    expect(md).toContain('| Kind | Covered | Excluded | Total | Percent |');
    expect(md).toContain('- **enums** `PrintSlip.tags[]=overpaid` (by `*.tags[]=overpaid`): the sandbox has no overpayment');
    expect(md).toContain('- **statuses** `getToken 500`: a server error cannot be caused from outside');
    expect(md).toContain("- **transitions** `operation INITIATED → FAILED`: the sandbox's operations pass IN_PROGRESS");
  });

  it('a covered item is covered, whatever excludes it', () => {
    const seen = buildCoverage({ tests: [rec('a > b', digest({ calls: ['getToken 500'] }))] }, info({ coverageExclude: exclude }));
    expect(find(seen.statuses, (s) => s.operationId === 'getToken' && s.status === '500')).toEqual(
      expect.not.objectContaining({ excluded: expect.anything() }),
    );
    expect(excludedItems(seen).map((e) => e.item)).not.toContain('getToken 500');
  });

  it('the alternative success the service did not answer is excluded by the contract', () => {
    const unpair = buildCoverage({ tests: [rec('pairing > unpair', digest({ calls: ['unpair 200'] }))] }, info());
    expect(find(unpair.statuses, (s) => s.operationId === 'unpair' && s.status === '204').excluded).toEqual({
      by: 'contract',
      reason: 'it answered unpair with 200, another success status the contract documents',
    });
    expect(uncoveredItems(unpair, ['statuses']).map((u) => u.item)).not.toContain('unpair 204');
  });

  it('is kept by the merge of shards', () => {
    const whole = buildCoverage({ tests: [payment, probes] }, info({ coverageExclude: exclude }));
    const merged = mergeCoverage(
      buildCoverage({ tests: [payment] }, info({ coverageExclude: exclude })),
      buildCoverage({ tests: [probes] }, info({ coverageExclude: exclude })),
    );
    expect(merged).toEqual(whole);
  });

  it('matches items as the reports name them: * any text, -> the arrow, spaces as one', () => {
    expect(itemMatches('transaction INITIATED->EXPIRED', 'transaction INITIATED → EXPIRED')).toBe(true);
    expect(itemMatches('*.payment_method=TWINT', 'PrintSlip.payment_method=TWINT')).toBe(true);
    expect(itemMatches('*.payment_method=TWINT', 'PrintSlip.payment_method=VALU')).toBe(false);
    expect(itemMatches('getToken  500', 'getToken 500')).toBe(true);
    expect(itemMatches('getToken 5', 'getToken 500')).toBe(false);
  });

  it('an exclusion that names no item is an error naming the nearest', () => {
    expect(checkCoverageExclusions(exclude, 'sandbox')).toEqual(exclude);
    expect(() => checkCoverageExclusions([{ item: 'getTokn 500', reason: 'r' }], 'sandbox')).toThrow(
      /"getTokn 500" names no coverage item; the nearest is "getToken 500"/,
    );
    expect(() =>
      checkCoverageExclusions([{ item: 'PrintSlip.tags[]=overpayed', reason: 'r' }], 'sandbox', { where: 'coverage.exclude' }),
    ).toThrow(/^coverage\.exclude: .*nearest is "PrintSlip\.tags\[\]=overpaid"/);
    expect(() => checkCoverageExclusions([{ item: '*=NOPE', reason: 'r' }], 'sandbox')).toThrow(
      expect.objectContaining({ code: 'PCC_CONFIG_INVALID' }),
    );
  });
});
