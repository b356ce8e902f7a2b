/**
 * The contract's named examples hold together the way Specmatic reads them: an example of one name is
 * one exchange, given by every required parameter and the request body under that name and answered
 * by the one response that has an example of that name. Specmatic refuses to load an example a
 * required parameter or the body lacks, and ignores a response example no request example names; an
 * example on a shared component (`components.responses`, `components.parameters`) would be read as an
 * example of every operation that refers to it, so named examples live in the operations.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { validators } from '../../src/generated/contract.ts';

type Json = Record<string, unknown>;
const contract = parse(readFileSync(new URL('../pay-connect.openapi.yaml', import.meta.url), 'utf8')) as Json;
const components = contract.components as Record<string, Record<string, Json>>;

const deref = (o: Json): Json => {
  const m = typeof o.$ref === 'string' ? /^#\/components\/(\w+)\/(\w+)$/.exec(o.$ref) : null;
  return m ? deref(components[m[1]!]![m[2]!]!) : o;
};
const names = (examples: unknown) => Object.keys((examples ?? {}) as Json);
const jsonMedia = (holder: Json | undefined) => (holder?.content as Json | undefined)?.['application/json'] as Json | undefined;

interface Op {
  id: string;
  params: Json[];
  body: Json | undefined;
  responses: [string, Json][];
}

const ops: Op[] = Object.values(contract.paths as Record<string, Record<string, Json>>).flatMap((item) =>
  Object.values(item).map((op) => ({
    id: String(op.operationId),
    params: ((op.parameters ?? []) as Json[]).map(deref),
    body: op.requestBody ? jsonMedia(deref(op.requestBody as Json)) : undefined,
    responses: Object.entries(op.responses as Record<string, Json>).map(([status, r]) => [status, deref(r)] as [string, Json]),
  })),
);

describe.each(ops.map((o) => [o.id, o] as const))('%s', (_id, op) => {
  const requestNames = [...new Set([...op.params.flatMap((p) => names(p.examples)), ...names(op.body?.examples)])];

  test('has named examples, and every required parameter and the body give each of them', () => {
    expect(requestNames.length).toBeGreaterThan(0);
    for (const p of op.params.filter((x) => x.required === true))
      expect(names(p.examples), `${String(p.in)} ${String(p.name)}`).toEqual(requestNames);
    if (op.body) expect(names(op.body.examples), 'request body').toEqual(requestNames);
  });

  test('each example is answered by exactly one response, and no response example is left over', () => {
    const byResponse = op.responses.map(([status, r]) => [status, names(jsonMedia(r)?.examples)] as const);
    const bodiless2xx = op.responses.some(([status, r]) => status.startsWith('2') && !r.content);
    for (const name of requestNames) {
      const answering = byResponse.filter(([, n]) => n.includes(name)).map(([s]) => s);
      // A 2xx without a body cannot carry a name: Specmatic pairs such an example with it (unpair).
      if (answering.length === 0 && bodiless2xx) continue;
      expect(answering, `example ${name}`).toHaveLength(1);
    }
    for (const [status, n] of byResponse) for (const name of n) expect(requestNames, `${status} example ${name}`).toContain(name);
  });

  test('the first example is the typical one: a 2xx', () => {
    const first = requestNames[0]!;
    const answering = op.responses.find(([, r]) => names(jsonMedia(r)?.examples).includes(first))?.[0] ?? '2xx without a body';
    expect(answering, `first example ${first}`).toMatch(/^2/);
  });

  test('every parameter example fits the parameter schema', () => {
    for (const p of op.params) {
      const schema = p.schema as Json;
      const ref = typeof schema.$ref === 'string' ? /(\w+)$/.exec(schema.$ref)![1]! : undefined;
      for (const [name, e] of Object.entries((p.examples ?? {}) as Record<string, Json>)) {
        const where = `${String(p.name)} example ${name}`;
        if (ref) expect(validators[ref]!(e.value), where).toBe(true);
        else {
          expect(typeof e.value, where).toBe(schema.type);
          expect(String(e.value).length, where).toBeGreaterThanOrEqual(Number(schema.minLength ?? 0));
        }
      }
    }
  });
});

test("shared components carry no named examples (they would be read as every referring operation's)", () => {
  for (const [name, r] of Object.entries(components.responses ?? {})) expect(jsonMedia(r)?.examples, `responses ${name}`).toBeUndefined();
  for (const [name, p] of Object.entries(components.parameters ?? {})) expect(p.examples, `parameters ${name}`).toBeUndefined();
});

test('every example sends the same integrator id, the one the IntegratorId schema names (what a peer pairs with)', () => {
  const id = (contract.components as { schemas: { IntegratorId: { example: string } } }).schemas.IntegratorId.example;
  const sent = new Set<string>();
  for (const op of ops) {
    const header = op.params.find((p) => p.in === 'header' && p.name === 'X-Pay-Connect-Integrator-Id');
    for (const [name, e] of Object.entries((header?.examples ?? {}) as Record<string, Json>))
      if (name !== 'OTHER_INTEGRATOR') sent.add(String(e.value));
  }
  expect([...sent]).toEqual([id]);
});

test("unpair is the last path: Specmatic runs the tests in document order, and unpair ends the run's pairing", () => {
  const ids = ops.map((o) => o.id);
  expect(ids.at(-1)).toBe('unpair');
  expect(ids.filter((id) => id === 'unpair')).toHaveLength(1);
});
