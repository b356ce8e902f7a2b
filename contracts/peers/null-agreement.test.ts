/**
 * The contract and the embedded simulator agree on null in request bodies. No document lets a
 * request field be null: the spec types `client_transaction_id`, `payment_method` and `webhook_url`
 * as strings, and what the public profile makes optional is a field left out, not one sent as null.
 * So the contract types them `string` (Prism's mock and proxy refuse a null there), and the simulator
 * must refuse a null as well, with a 400 that names the field.
 *
 * Derived from the contract: for every operation with a JSON request body, and every property of its
 * schema, the operation's first example with that property set to null. Whatever the contract's
 * schema says of that body (refused, or accepted where a schema says nullable), the simulator says the
 * same. The state an example needs (a fresh OTP, live credentials, a SUCCESS payment or
 * preauthorization of the pairing) is made first, so that the null is the only thing wrong.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { operations, validators } from '../../src/generated/contract.ts';
import { type Client, P, pairClient, pay, startTestSim, type TestSim } from '../../src/simulator/testkit.ts';

type Json = Record<string, unknown>;
const contract = parse(readFileSync(new URL('../pay-connect.openapi.yaml', import.meta.url), 'utf8')) as Json;
const schemas = (contract.components as { schemas: Record<string, Json> }).schemas;

interface Case {
  operationId: string;
  schema: string;
  property: string;
  example: Json;
}

/** The first example of each request body, keyed by operation id (bodies are inline in every operation). */
const firstExamples = new Map<string, Json>();
for (const item of Object.values(contract.paths as Record<string, Record<string, Json>>)) {
  for (const op of Object.values(item)) {
    const media = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined;
    const first = Object.values((media?.examples ?? {}) as Record<string, { value: Json }>)[0];
    if (first) firstExamples.set(String(op.operationId), first.value);
  }
}

const cases: Case[] = operations
  .filter((o) => o.requestSchema !== null)
  .flatMap((o) =>
    Object.keys((schemas[o.requestSchema!]!.properties ?? {}) as Json).map((property) => ({
      operationId: o.operationId,
      schema: o.requestSchema!,
      property,
      example: firstExamples.get(o.operationId)!,
    })),
  );

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim({ stepDelayMs: 0 });
});
afterAll(() => t.close());

/**
 * Sends `body` the way the operation needs it, as `client` (a pairing of its own per case: a body the
 * simulator wrongly accepts leaves no busy terminal behind for the next case), with the state its
 * example needs made first.
 */
async function sendAs(client: Client, operationId: string, body: Json): Promise<{ status: number; detail: string }> {
  const send = async (path: string, headers: Record<string, string> = client.headers) => {
    const r = await t.http.call('POST', path, { headers, body });
    return { status: r.status, detail: String((r.json as { detail?: unknown } | null)?.detail ?? r.text) };
  };
  switch (operationId) {
    case 'getToken':
      return send(P.token, {});
    case 'pair':
      return send(P.pair, { 'x-pay-connect-integrator-id': client.integratorId });
    case 'generateTransaction':
      return send(P.generate);
    case 'startPreauth':
      return send(P.preauth);
    case 'independentRefund':
      return send(P.refund);
    case 'linkedRefund':
      return send(P.linkedRefund(String((await pay(client, 1250)).transaction_id)));
    case 'preauthIncrement':
      return send(P.increment(String((await pay(client, 10000, P.preauth)).transaction_id)));
    case 'preauthComplete':
      return send(P.complete(String((await pay(client, 10000, P.preauth)).transaction_id)));
    default:
      throw new Error(`no way to send a body to ${operationId}: add it here`);
  }
}

/** The example with what it needs filled in: a fresh OTP, the pairing's live credentials. */
function live(client: Client, c: Case): Json {
  if (c.operationId === 'pair') return { ...c.example, otp: t.sim.mintOtp() };
  if (c.operationId === 'getToken')
    return { ...c.example, client_id: client.pairing.client_id, client_secret: client.pairing.client_secret };
  return { ...c.example };
}

describe('a null in a request body: the contract and the simulator agree', () => {
  test('the cases cover the three optional string fields a null slipped through', () => {
    const names = cases.map((c) => `${c.operationId}.${c.property}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'pair.webhook_url',
        'generateTransaction.client_transaction_id',
        'generateTransaction.payment_method',
        'startPreauth.client_transaction_id',
        'independentRefund.client_transaction_id',
      ]),
    );
  });

  test.each(cases.map((c) => [`${c.operationId} ${c.property}`, c] as const))('%s: null', async (_name, c) => {
    const client = await pairClient(t, { integratorId: 'integrator-0042' });
    const body = { ...live(client, c), [c.property]: null };
    const contractAccepts = validators[c.schema]!(body) === true;
    const answer = await sendAs(client, c.operationId, body);
    if (contractAccepts) {
      expect(answer.status, answer.detail).toBeLessThan(300);
    } else {
      expect(answer.status, answer.detail).toBe(400);
      expect(answer.detail).toContain(c.property);
    }
  });
});
