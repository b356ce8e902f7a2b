/**
 * The contract against its sources and itself: the spec's print-slip required list, the examples,
 * and the operation table the harness relies on.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { operations, schemaSources, validators, webhooks } from '../src/generated/contract.ts';

const contract = parse(readFileSync(new URL('./pay-connect.openapi.yaml', import.meta.url), 'utf8'));
const spec = readFileSync(new URL('../../shared/spec/pay-connect-spec.md', import.meta.url), 'utf8');

type Json = Record<string, unknown>;
const refName = (ref: unknown) => (typeof ref === 'string' ? /#\/components\/schemas\/(\w+)$/.exec(ref)?.[1] : undefined);
const resolve = (o: Json): Json => {
  const m = typeof o.$ref === 'string' ? /#\/components\/(\w+)\/(\w+)$/.exec(o.$ref) : null;
  return m ? (contract.components[m[1]!][m[2]!] as Json) : o;
};

/** Every (schema name, example, where) in the contract: media types, parameters and component schemas. */
function allExamples(): { name: string; example: unknown; where: string }[] {
  const out: { name: string; example: unknown; where: string }[] = [];
  const media = (content: unknown, where: string) => {
    for (const [type, m] of Object.entries((content ?? {}) as Record<string, Json>)) {
      const name = refName((m.schema as Json | undefined)?.$ref);
      expect(name, `${where} ${type} must $ref a component schema`).toBeDefined();
      // A singular `example`, or named `examples` (matched by name across an operation's parts).
      const named = Object.entries((m.examples ?? {}) as Record<string, Json>);
      expect('example' in m || named.length > 0, `${where} ${type} has an example`).toBe(true);
      if ('example' in m) out.push({ name: name!, example: m.example, where: `${where} ${type}` });
      for (const [key, e] of named) out.push({ name: name!, example: e.value, where: `${where} ${type} example ${key}` });
    }
  };
  for (const [group, items] of [
    ['paths', contract.paths],
    ['webhooks', contract.webhooks],
  ] as const) {
    for (const [path, item] of Object.entries(items as Record<string, Record<string, Json>>)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${group} ${method.toUpperCase()} ${path}`;
        const body = op.requestBody as Json | undefined;
        if (body) media(body.content, `${where} request`);
        for (const [status, r] of Object.entries(op.responses as Record<string, Json>)) {
          media(resolve(r).content, `${where} ${status}`);
        }
      }
    }
  }
  for (const [name, schema] of Object.entries(contract.components.schemas as Record<string, Json>)) {
    if ('example' in schema) out.push({ name, example: schema.example, where: `schema ${name}` });
  }
  return out;
}

describe('the contract', () => {
  test('the print slip requires exactly the fields the spec lists as required', () => {
    const m = /^Required fields: ([^.]+)\. All others are optional\.$/m.exec(spec);
    expect(m, 'the spec states the print slip required list').not.toBeNull();
    const fromSpec = m![1]!.split(',').map((s) => s.trim());
    expect(fromSpec).toHaveLength(14);
    expect([...contract.components.schemas.PrintSlip.required].sort()).toEqual([...fromSpec].sort());
    // and the table agrees with the sentence: every "yes" row is in the list
    const table = spec.slice(spec.indexOf('### Transaction print slip'), spec.indexOf('`organization` object'));
    const yes = [...table.matchAll(/^\| (\w+) \| [^|]+ \| yes \|/gm)].map((r) => r[1]);
    expect(yes.sort()).toEqual([...fromSpec].sort());
  });

  test('every example validates against its own schema', () => {
    const examples = allExamples();
    expect(examples.length).toBeGreaterThan(40);
    for (const { name, example, where } of examples) {
      const validate = validators[name];
      expect(validate, `validator for ${name}`).toBeDefined();
      expect(validate!(example), `${where}: ${JSON.stringify(validate!.errors)}`).toBe(true);
    }
  });

  test('every operation, response and schema says where it comes from', () => {
    for (const op of operations) {
      expect(['spec', 'profile', 'sandbox']).toContain(op.source);
      for (const r of Object.values(op.responses)) expect(['spec', 'profile', 'sandbox']).toContain(r.source);
    }
    for (const name of Object.keys(contract.components.schemas)) {
      expect(['spec', 'profile', 'sandbox'], name).toContain(schemaSources[name]);
    }
    expect(webhooks.map((w) => w.source)).toEqual(['sandbox', 'sandbox']);
  });

  test('paths, headers and security follow the spec', () => {
    const spec8 = [
      'getToken',
      'pair',
      'getConfig',
      'generateTransaction',
      'cancelTransaction',
      'getPrintSlip',
      'preauthComplete',
      'preauthIncrement',
    ];
    for (const id of spec8) expect(operations.find((o) => o.operationId === id)?.source, id).toBe('spec');
    for (const op of operations) {
      expect(op.path.endsWith('/'), op.path).toBe(true);
      expect(op.integratorHeader, `${op.operationId} integrator header`).toBe(op.operationId !== 'getToken');
      expect(op.bearer, `${op.operationId} bearer`).toBe(!['getToken', 'pair'].includes(op.operationId));
      expect(op.responses['200'], `${op.operationId} documents 200`).toBeDefined();
    }
    const printSlip = operations.find((o) => o.operationId === 'getPrintSlip')!;
    for (const s of ['200', '400', '401', '500']) expect(printSlip.responses[s]?.source).toBe('spec');
    expect(operations).toHaveLength(15);
  });
});
