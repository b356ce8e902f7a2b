/**
 * The toolkit's pact pins no status the documents leave open: every HTTP interaction of the committed
 * pact, and of the catalogue that writes it, accepts only statuses the contract documents for its
 * operation, and every status the documents allow where they allow several (unpair 200 or 204, a
 * wrong client_secret 400 or 401). Each kind of slip is caught in a copy changed to show it; the
 * wrong secret's statuses are ones the run's own auth checks accept.
 */
import { join } from 'node:path';
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { badCredentialsRefused, credentialsRevoked } from '../../checks/pairing-checks.ts';
import { statusDocumented } from '../../checks/response-checks.ts';
import { SANDBOX, judge } from '../../checks/test-judge.ts';
import type { Exchange } from '../../core/index.ts';
import { operations } from '../../generated/contract.ts';
import { type AnyInteraction, type AnyPact, readAnyPact } from './any-pact.ts';
import { type HttpInteraction, httpInteractions } from '../consumer/interactions.ts';
import { DEFAULT_PACT_DIR, PACT_FILE_NAME } from './names.ts';
import { TOKEN_REFUSED, acceptedStatuses, checkStatusLatitude } from './status-latitude.ts';

const WRONG_SECRET = 'exchange client credentials with a wrong client_secret is refused';
const UNPAIR = 'unpair the terminal';

const committed = readAnyPact(join(DEFAULT_PACT_DIR, PACT_FILE_NAME));

/** A catalogue interaction as check-pact reads a pact's: example values, and the status matcher's rule. */
function asPactInteraction(i: HttpInteraction): AnyInteraction {
  const matcher = typeof i.status === 'number' ? undefined : i.status;
  const part = { headers: {}, headerNames: {}, rules: {} };
  return {
    kind: 'http',
    type: 'Synchronous/HTTP',
    description: i.description,
    states: [{ name: i.state }],
    pending: false,
    request: {
      ...part,
      method: i.method,
      path: String(MatchersV3.reify(i.path)),
      query: {},
      hasBody: i.body !== undefined,
      body: i.body && MatchersV3.reify(i.body),
    },
    response: {
      ...part,
      status: Number(MatchersV3.reify(i.status)),
      hasBody: i.responseBody !== undefined,
      body: i.responseBody && MatchersV3.reify(i.responseBody),
      rules: matcher ? { status: { '': { combine: 'AND', matchers: [{ match: 'statusCode', status: matcher.status }] } } } : {},
    },
  };
}

const catalogue = (): AnyPact['interactions'] => httpInteractions().map(asPactInteraction);

/** `pact` with the interaction `description` changed by `edit`. */
function changed(
  interactions: AnyInteraction[],
  description: string,
  edit: (i: AnyInteraction) => void,
): { interactions: AnyInteraction[] } {
  const copy = structuredClone(interactions);
  const i = copy.find((x) => x.description === description);
  if (!i) throw new Error(`no interaction ${description}`);
  edit(i);
  return { interactions: copy };
}

const problems = (pact: { interactions: AnyInteraction[] }) =>
  checkStatusLatitude(pact)
    .filter((v) => !v.ok)
    .map((v) => `${v.description}: ${v.reasons.join('; ')}`);

const statusRule = (status: unknown) => ({ '': { combine: 'AND', matchers: [{ match: 'statusCode', status }] } });

describe('the toolkit pact and the latitude of the documents', () => {
  it('every HTTP interaction of the committed pact accepts only documented statuses, and all the documents allow', () => {
    const verdicts = checkStatusLatitude(committed);
    expect(verdicts).toHaveLength(committed.interactions.filter((i) => i.kind === 'http').length);
    expect(problems(committed)).toEqual([]);
    // The two situations with latitude are both in the pact, and said as such.
    const byName = new Map(verdicts.map((v) => [v.description, v]));
    expect(byName.get(WRONG_SECRET)).toMatchObject({ operation: 'getToken', accepts: '400 or 401', situation: { statuses: [400, 401] } });
    expect(byName.get(UNPAIR)).toMatchObject({ operation: 'unpair', accepts: '200 or 204', situation: { statuses: [200, 204] } });
  });

  it('so does every interaction of the catalogue that writes it (a change shows before the pact is written again)', () => {
    const interactions = catalogue();
    expect(interactions.map((i) => i.description).sort()).toEqual(
      committed.interactions
        .filter((i) => i.kind === 'http')
        .map((i) => i.description)
        .sort(),
    );
    expect(problems({ interactions })).toEqual([]);
  });

  it('a wrong client_secret pinned to 401 (or to 400) is reported, naming the alternative', () => {
    for (const pact of [committed.interactions, catalogue()]) {
      expect(problems(changed(pact, WRONG_SECRET, (i) => (i.response!.rules = {})))).toEqual([
        `${WRONG_SECRET}: pins 401 where the documents allow 400 or 401 for well-formed client credentials that obtain no token ` +
          ('(the spec gives no status, the profile documents 400, sandbox.md 400 or 401, RFC 6749 5.2 ' +
            '400 invalid_client): a provider answering 400 follows them and would fail'),
      ]);
      expect(
        problems(
          changed(pact, WRONG_SECRET, (i) => {
            i.response!.status = 400;
            i.response!.rules = {};
          }),
        ),
      ).toEqual([
        expect.stringContaining('pins 400 where the documents allow 400 or 401 for well-formed client credentials that obtain no token'),
      ]);
    }
  });

  it('unpair pinned to 200 is reported: the contract documents 204 too', () => {
    expect(problems(changed(committed.interactions, UNPAIR, (i) => (i.response!.rules = {})))).toEqual([
      `${UNPAIR}: pins 200 where the documents allow 200 or 204 for an accepted unpair (the contract ` +
        `documents 200 (profile), 204 (sandbox)): a provider answering 204 follows them and would fail`,
    ]);
  });

  it('a status class takes in statuses the operation does not document; a documented one outside the situation is reported too', () => {
    expect(
      problems(changed(committed.interactions, WRONG_SECRET, (i) => (i.response!.rules = { status: statusRule('clientError') }))),
    ).toEqual([
      `${WRONG_SECRET}: accepts any 4xx (clientError): getToken does not document 402, 403, 404, ` +
        `405, 406, … (97 in all) (documents 200, 400, 401, 413, 500); ` +
        ('accepts 413, which the documents do not allow for well-formed client credentials that obtain ' +
          'no token (they allow 400 or 401: the spec gives no status, the profile documents 400, sandbox.md ' +
          '400 or 401, RFC 6749 5.2 400 invalid_client)'),
    ]);
    expect(
      problems(changed(committed.interactions, WRONG_SECRET, (i) => (i.response!.rules = { status: statusRule([400, 401, 500]) }))),
    ).toEqual([
      expect.stringContaining('accepts 500, which the documents do not allow for well-formed client credentials that obtain no token'),
    ]);
    expect(
      problems(
        changed(committed.interactions, 'read the terminal configuration', (i) => (i.response!.rules = { status: statusRule([200, 204]) })),
      ),
    ).toEqual(['read the terminal configuration: accepts 200 or 204: getConfig does not document 204 (documents 200, 400, 401)']);
  });

  it('a refusal the documents pin may stay pinned; an example its own matcher refuses, or an unknown class, is reported', () => {
    const probe = 'getConfig without a bearer token is refused';
    expect(checkStatusLatitude(changed(committed.interactions, probe, () => undefined)).find((v) => v.description === probe)).toMatchObject(
      { ok: true, accepts: '401' },
    );
    expect(problems(changed(committed.interactions, WRONG_SECRET, (i) => (i.response!.status = 413)))).toEqual([
      `${WRONG_SECRET}: its example status 413 is not one its status matcher accepts (400 or 401)`,
    ]);
    expect(problems(changed(committed.interactions, UNPAIR, (i) => (i.response!.rules = { status: statusRule('teapot') })))).toEqual([
      expect.stringContaining('the status matcher "teapot" is no status list or class of Pact V4'),
    ]);
  });
});

describe('acceptedStatuses', () => {
  it('reads a list, a class, AND and OR of several, and the layouts V3 and V4 write the rule in', () => {
    expect(acceptedStatuses(401, undefined)).toEqual({ statuses: [401], label: '401' });
    expect(acceptedStatuses(401, { $: { matchers: [{ match: 'statusCode', status: [401, 400] }] } })).toEqual({
      statuses: [400, 401],
      label: '401 or 400',
    });
    expect(acceptedStatuses(204, { matchers: [{ match: 'statusCode', status: 'success' }] }).statuses).toHaveLength(100);
    expect(acceptedStatuses(500, statusRule('error')).label).toBe('any 4xx or 5xx (error)');
    const both = [
      { match: 'statusCode', status: 'clientError' },
      { match: 'statusCode', status: [400, 401, 500] },
    ];
    expect(acceptedStatuses(400, { '': { combine: 'AND', matchers: both } }).statuses).toEqual([400, 401]);
    expect(acceptedStatuses(400, { '': { combine: 'OR', matchers: both } }).statuses).toHaveLength(101);
    expect(acceptedStatuses(200, { '': { matchers: [{ match: 'type' }] } })).toEqual({ statuses: [200], label: '200' });
  });
});

describe('the wrong client_secret: the pact and the run accept the same refusals', () => {
  const token = operations.find((o) => o.operationId === 'getToken')!;
  const exchange = (status: number) =>
    ({
      seq: 1,
      startedAt: '2026-11-24T10:00:00.000Z',
      request: { method: 'POST', path: '/v1/auth/token/', headers: {} },
      response: { status, headers: {}, body: { detail: 'x' } },
    }) as unknown as Exchange;
  const runAccepts = (status: number) =>
    [badCredentialsRefused, statusDocumented].every((c) => judge(c, exchange(status), { ...SANDBOX, operation: token }).outcome === 'pass');

  it('every status the interaction accepts passes the auth suite and the automatic status check; 200 and 500 pass neither', () => {
    const accepted = checkStatusLatitude(committed).find((v) => v.description === WRONG_SECRET)!;
    expect(accepted.situation?.statuses).toEqual(TOKEN_REFUSED);
    for (const s of TOKEN_REFUSED) expect(runAccepts(s), String(s)).toBe(true);
    for (const s of [200, 500]) expect(runAccepts(s), String(s)).toBe(false);
  });

  it('and they are exactly what the run accepts for unpaired credentials (sandbox.md: 400 or 401)', () => {
    const passes = Array.from({ length: 500 }, (_, k) => 100 + k).filter((s) => judge(credentialsRevoked, exchange(s)).outcome === 'pass');
    expect(passes).toEqual(TOKEN_REFUSED);
  });
});
