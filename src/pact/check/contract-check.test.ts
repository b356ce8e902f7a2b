/**
 * The pact-vs-contract check (the bi-directional comparison): the committed pact passes, and each
 * kind of disagreement with the OpenAPI contract is caught in a pact changed to show it.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { PACT_FILE_NAME, type PactFile, type PactInteraction, checkPactAgainstContract, readPact } from '../index.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const pact = readPact(join(ROOT, 'contracts', 'pacts', PACT_FILE_NAME));

function changed(description: string, edit: (i: PactInteraction) => void): PactFile {
  const copy = structuredClone(pact);
  const i = copy.interactions.find((x) => x.description === description);
  if (!i) throw new Error(`no interaction ${description}`);
  edit(i);
  return copy;
}
const problems = (p: PactFile) => checkPactAgainstContract(p).map((x) => `${x.interaction}: ${x.message}`);

describe('pact vs contract', () => {
  test('the committed pact agrees with the contract, and covers all 15 operations', () => {
    expect(problems(pact)).toEqual([]);
    const http = pact.interactions.filter((i) => i.type === 'Synchronous/HTTP');
    expect(http.length).toBeGreaterThanOrEqual(15);
  });

  test('a path that is no operation', () => {
    expect(problems(changed('read the terminal configuration', (i) => (i.request!.path = '/v1/pay-connect/configuration/')))).toEqual([
      'read the terminal configuration: GET /v1/pay-connect/configuration/ is no operation of the contract',
    ]);
  });

  test('a missing integrator header, a bearer token on the token endpoint', () => {
    expect(
      problems(changed('read the terminal configuration', (i) => delete i.request!.headers!['X-Pay-Connect-Integrator-Id'])),
    ).toContainEqual(expect.stringContaining('requires X-Pay-Connect-Integrator-Id'));
    expect(
      problems(changed('exchange client credentials for a bearer token', (i) => (i.request!.headers!.Authorization = ['Bearer x']))),
    ).toContainEqual(expect.stringContaining('getToken takes no bearer token'));
  });

  test('a negative interaction (a documented 4xx) may send what the contract refuses; answered 200 it may not', () => {
    expect(problems(changed('getConfig without a bearer token is refused', () => undefined))).toEqual([]);
    expect(
      problems(
        changed('getConfig without a bearer token is refused', (i) => {
          i.response!.status = 200;
          i.response!.body = { ...i.response!.body!, content: {} };
        }),
      ),
    ).toContainEqual(expect.stringContaining('getConfig requires a bearer token; the request sends none'));
  });

  test('a request body the schema refuses, and a field the schema does not define', () => {
    expect(
      problems(changed('start a preauthorization', (i) => ((i.request!.body!.content as Record<string, unknown>).amount = 0))),
    ).toContainEqual(expect.stringContaining('request body does not match PreauthRequest'));
    expect(
      problems(changed('start a preauthorization', (i) => ((i.request!.body!.content as Record<string, unknown>).note = 'x'))),
    ).toContainEqual(expect.stringContaining('the request sends $.note, which PreauthRequest does not define'));
  });

  test('an undocumented status, and a response field the provider never promised', () => {
    expect(problems(changed('read the terminal configuration', (i) => (i.response!.status = 202)))).toContainEqual(
      expect.stringContaining('does not document status 202'),
    );
    expect(
      problems(changed('read the terminal configuration', (i) => ((i.response!.body!.content as Record<string, unknown>).brand = 'x'))),
    ).toContainEqual(expect.stringContaining('the pact expects $.brand, which Configuration does not define'));
    expect(
      problems(
        changed(
          'poll the status of a declined transaction',
          (i) => ((i.response!.body!.content as Record<string, unknown>).status = 'COMPLETED'),
        ),
      ),
    ).toContainEqual(expect.stringContaining('response body does not match TransactionRecord'));
  });

  test('a status matcher: every status it accepts is documented, and the expected body fits each', () => {
    const wrongSecret = 'exchange client credentials with a wrong client_secret is refused';
    const accepting = (status: unknown) => (i: PactInteraction) => {
      (i.response!.matchingRules as Record<string, unknown>).status = {
        $: { combine: 'AND', matchers: [{ match: 'statusCode', status }] },
      };
    };
    expect(problems(changed(wrongSecret, accepting('clientError')))).toEqual([
      `${wrongSecret}: getToken does not document status 402, 403, 404, 405, 406, … (97 in all) (documented: 200, 400, 401, 413, 500)`,
    ]);
    // 200 documents a TokenResult: the refusal's Error body does not fit it.
    expect(problems(changed(wrongSecret, accepting([200, 401])))).toContainEqual(
      expect.stringContaining('response body does not match TokenResult (of 200, which the status matcher accepts)'),
    );
    expect(
      problems(changed('unpair the terminal', (i) => (i.response!.body = { content: { detail: 'x' }, contentType: 'application/json' }))),
    ).toEqual([
      'unpair the terminal: unpair 200 has no body in the contract; the pact expects one',
      'unpair the terminal: unpair 204 has no body in the contract; the pact expects one',
    ]);
  });

  test('a message with a bad Signature or an event outside the contract', () => {
    expect(
      problems(changed('a transaction.success webhook about a successful transaction', (i) => (i.metadata!.Signature = 'sha256=abc'))),
    ).toContainEqual(expect.stringContaining('metadata Signature "sha256=abc" does not match'));
    expect(
      problems(
        changed(
          'a transaction.success webhook about a successful transaction',
          (i) => ((i.contents!.content as Record<string, unknown>).event = 'payment.done'),
        ),
      ),
    ).toContainEqual(expect.stringContaining('is no webhook of the contract'));
  });

  test('a matcher that contradicts its own example', () => {
    expect(
      problems(
        changed(
          'poll the status of a declined transaction',
          (i) => ((i.response!.body!.content as Record<string, unknown>).currency = 'euro'),
        ),
      ),
    ).toContainEqual(expect.stringContaining('response body $.currency: the example "euro" does not match its own regex'));
  });
});
