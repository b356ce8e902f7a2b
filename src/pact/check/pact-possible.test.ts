/**
 * Whether an interaction is possible under the contract: requests (operation, headers, query, body),
 * responses (status, content type, body as a subset of its schema), messages, and matchers (the
 * examples validated; a regex its own example fails is reported).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parseAnyPact, readAnyPact } from '../common/any-pact.ts';
import { PACT_FILE_NAME } from '../common/names.ts';
import { checkPactPossible } from './pact-possible.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const HEADERS = { Authorization: ['Bearer t0ken-value'], 'X-Pay-Connect-Integrator-Id': ['acme'], 'Content-Type': ['application/json'] };

/** The reasons of one V4 HTTP interaction built from `request` and `response` overrides. */
function reasons(request: Record<string, unknown>, response: Record<string, unknown> = {}): string[] {
  const p = parseAnyPact(
    {
      consumer: { name: 'c' },
      provider: { name: 'p' },
      interactions: [
        {
          type: 'Synchronous/HTTP',
          description: 'd',
          request: {
            method: 'POST',
            path: '/v1/pay-connect/transactions/generate/',
            headers: HEADERS,
            body: { content: { amount: 1250 } },
            ...request,
          },
          response: { status: 200, body: { content: { transaction_id: 'tx' } }, ...response },
        },
      ],
    },
    'f',
  );
  return checkPactPossible(p)[0]!.reasons;
}

const message = (contents: unknown, metadata: Record<string, unknown> = {}) =>
  checkPactPossible(
    parseAnyPact(
      {
        consumer: { name: 'c' },
        provider: { name: 'p' },
        interactions: [{ type: 'Asynchronous/Messages', description: 'm', contents: { content: contents }, metadata }],
      },
      'f',
    ),
  )[0]!;

describe('checkPactPossible', () => {
  test("the toolkit's own pact: every interaction possible", () => {
    const verdicts = checkPactPossible(readAnyPact(join(ROOT, 'contracts', 'pacts', PACT_FILE_NAME)));
    expect(verdicts.filter((v) => !v.possible)).toEqual([]);
    expect(verdicts.length).toBeGreaterThan(30);
  });

  test('a possible request and response', () => {
    expect(reasons({})).toEqual([]);
  });

  test('operations: the trailing slash, a method the path does not take, an unknown path', () => {
    expect(reasons({ path: '/v1/pay-connect/transactions/generate' })).toEqual([
      'POST /v1/pay-connect/transactions/generate (no trailing slash): no such operation (the contract ' +
        'has POST /v1/pay-connect/transactions/generate/, generateTransaction)',
    ]);
    expect(reasons({ method: 'GET' })).toEqual(['GET /v1/pay-connect/transactions/generate/: no such operation (the path takes POST)']);
    expect(reasons({ path: '/v1/pay/' })).toEqual(['POST /v1/pay/: no such operation']);
  });

  test('headers: the integrator header, bearer auth (the value never quoted)', () => {
    expect(reasons({ headers: { Authorization: ['Bearer x'] } })).toEqual([
      'request: generateTransaction requires the X-Pay-Connect-Integrator-Id header; the request does not send it',
    ]);
    expect(reasons({ headers: { 'X-Pay-Connect-Integrator-Id': ['a'] } })).toEqual([
      'request: generateTransaction requires bearer auth (Authorization: Bearer <access token>); the request sends no Authorization header',
    ]);
    expect(reasons({ headers: { ...HEADERS, Authorization: ['Basic dXNlcjpwYXNz'] } })).toEqual([
      "request: generateTransaction requires bearer auth; the request's Authorization header is of scheme Basic",
    ]);
    expect(reasons({ headers: { ...HEADERS, Authorization: ['rawsecretvalue'] } })).toEqual([
      "request: generateTransaction requires bearer auth; the request's Authorization header is not of the form Bearer <token>",
    ]);
    expect(reasons({ headers: { ...HEADERS, 'Content-Type': ['text/plain'] } })).toEqual([
      'request: Content-Type text/plain where generateTransaction takes application/json',
    ]);
  });

  test('a negative interaction: what the contract refuses, answered with a documented 4xx, is possible', () => {
    const refused = { status: 400, body: { content: { detail: 'amount must be a positive integer' } } };
    expect(reasons({ body: { content: { amount: 12.5 } } }, refused)).toEqual([]);
    expect(
      reasons({ headers: { 'X-Pay-Connect-Integrator-Id': ['a'] } }, { status: 401, body: { content: { detail: 'no token' } } }),
    ).toEqual([]);
    // The same request expecting a success is not; nor is a 4xx the operation does not document.
    expect(reasons({ body: { content: { amount: 12.5 } } })).toEqual(['request body: /amount must be integer']);
    expect(reasons({ body: { content: { amount: 12.5 } } }, { status: 418, body: { content: {} } })[0]).toMatch(
      /^request body: \/amount must be integer$/,
    );
  });

  test('a constraint of the contract\'s own (x-ours) is no reason: a pairing with webhook_url "" answered 200 is possible', () => {
    const pairing = {
      content: {
        pay_connect_id: 'p',
        pay_connect_name: 'n',
        terminal_id: 't',
        client_id: 'c',
        client_secret: 's',
        webhook_secret_key: null,
      },
    };
    const pair = (body: Record<string, unknown>) =>
      reasons(
        {
          path: '/v1/pay-connect/pair/',
          headers: { 'X-Pay-Connect-Integrator-Id': ['acme'], 'Content-Type': ['application/json'] },
          body: { content: body },
        },
        { status: 200, body: pairing },
      );
    expect(pair({ name: '𐩐ଦ', otp: '051060', webhook_url: '' })).toEqual([]);
    // An OTP that is not six digits is sandbox.md's, not ours: still a reason.
    expect(pair({ name: 'n', otp: '12a456' })).toEqual(['request body: /otp must match pattern "^[0-9]{6}$"']);
  });

  test('query parameters the operation does not document', () => {
    expect(reasons({ query: { debug: ['1'] } })).toEqual([
      'request query debug: not a parameter of generateTransaction (it documents none)',
    ]);
  });

  test('request bodies: the schema, a missing body, a body where none is documented', () => {
    expect(reasons({ body: { content: { amount: 12.5 } } })).toEqual(['request body: /amount must be integer']);
    expect(reasons({ body: { content: { client_transaction_id: 'x' } } })).toEqual(["request body: must have required property 'amount'"]);
    expect(reasons({ body: undefined })).toEqual([
      'request body: generateTransaction requires a GenerateRequest body; the request has none',
    ]);
    expect(reasons({ method: 'GET', path: '/v1/pay-connect/config/' }, { body: undefined })).toEqual([
      'request body: getConfig documents no request body; the request has one',
    ]);
  });

  test('responses: an undocumented status, a body the schema refuses, a field it does not define, a body where none is', () => {
    expect(reasons({}, { status: 201 })).toEqual([
      'response 201 not documented for generateTransaction (documents 200, 400, 401, 409, 413)',
    ]);
    expect(reasons({}, { body: { content: { transaction_id: 5 } } })).toEqual(['response body: /transaction_id must be string']);
    expect(reasons({}, { body: { content: { transaction_id: 'tx', receipt: 'r' } } })).toEqual([
      'response body: /receipt is not defined by TransactionCreated (a provider following the contract need not send it)',
    ]);
    expect(reasons({}, { headers: { 'Content-Type': ['text/html'] } })).toEqual([
      'response header Content-Type: text/html; generateTransaction 200 answers application/json',
    ]);
    expect(reasons({ path: '/v1/pay-connect/unpair/', body: undefined }, { status: 204, body: { content: { ok: true } } })).toEqual([
      'response body: unpair 204 has no body in the contract; the pact expects one',
    ]);
  });

  test('an expected body is a subset: required fields it leaves out are possible; no body expected is possible', () => {
    expect(
      reasons({ method: 'GET', path: '/v1/pay-connect/config/', body: undefined }, { body: { content: { currency: 'EUR' } } }),
    ).toEqual([]);
    expect(reasons({}, { status: 409, body: undefined })).toEqual([]);
  });

  test('matchers: the examples are validated, a regex its own example fails is reported', () => {
    // A loosening matcher does not excuse an example the schema refuses.
    expect(
      reasons({ body: { content: { amount: 12.5 } }, matchingRules: { body: { '$.amount': { matchers: [{ match: 'number' }] } } } }),
    ).toEqual(['request body: /amount must be integer']);
    expect(reasons({}, { matchingRules: { body: { '$.transaction_id': { matchers: [{ match: 'regex', regex: '^op_' }] } } } })).toEqual([
      'response body $.transaction_id: the example "tx" does not match its own regex ^op_',
    ]);
    expect(reasons({ matchingRules: { header: { Authorization: { matchers: [{ match: 'regex', regex: '^Token ' }] } } } })).toEqual([
      'request header Authorization: the example does not match its own regex ^Token ',
    ]);
  });

  test('messages: the webhook event schemas, the Signature pattern, an unsupported interaction type', () => {
    const ok = { event: 'transaction.success', event_id: 'e', data: { transaction_id: 'tx', status: 'SUCCESS' } };
    expect(message(ok)).toMatchObject({ possible: true, operation: 'TransactionEvent' });
    expect(message({ ...ok, event: 'operation.success', data: { operation_id: 'op', status: 'CANCELED' } }).reasons).toEqual([
      'message contents: /data/status must be equal to one of the allowed values (INITIATED, IN_PROGRESS, SUCCESS, FAILED, EXPIRED)',
    ]);
    expect(message(ok, { Signature: 'ABC' }).reasons).toEqual([
      'message metadata Signature: does not match ^[0-9a-f]{64}$ (lowercase hex HMAC-SHA256)',
    ]);
    expect(message({ ...ok, extra: 1 }).reasons).toEqual([
      'message contents: /extra is not defined by TransactionEvent (a provider following the contract need not send it)',
    ]);
    const sync = checkPactPossible(
      parseAnyPact(
        { consumer: { name: 'c' }, provider: { name: 'p' }, interactions: [{ type: 'Synchronous/Messages', description: 's' }] },
        'f',
      ),
    )[0]!;
    expect(sync.reasons).toEqual([
      'Synchronous/Messages interactions are not part of the contract (it has HTTP operations and asynchronous webhook messages)',
    ]);
  });
});
