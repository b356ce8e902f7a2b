/**
 * Pact V2, V3 and V4 files read into one shape; what is not a pact is a usage error that quotes
 * nothing of the file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseAnyPact, readAnyPact } from './any-pact.ts';

const dir = mkdtempSync(join(tmpdir(), 'pcc-any-pact-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pact = (extra: Record<string, unknown>) => ({ consumer: { name: 'c' }, provider: { name: 'p' }, ...extra });

describe('readAnyPact', () => {
  test('V2: string headers and query, providerState, rules by $.body / $.headers', () => {
    const p = parseAnyPact(
      pact({
        metadata: { pactSpecification: { version: '2.0.0' } },
        interactions: [
          {
            description: 'd',
            providerState: 's',
            request: { method: 'post', path: '/x/', query: 'a=1&a=2&b=3', headers: { 'X-A': 'v' }, body: { n: 1 } },
            response: {
              status: 200,
              body: { k: 'v' },
              matchingRules: {
                '$.body.k': { match: 'regex', regex: '^v$' },
                "$.headers['Content-Type']": { match: 'regex', regex: 'json' },
              },
            },
          },
        ],
      }),
      'f',
    );
    const i = p.interactions[0]!;
    expect(p.specification).toBe('2.0.0');
    expect(i).toMatchObject({ kind: 'http', type: 'Synchronous/HTTP', description: 'd', states: [{ name: 's' }] });
    expect(i.request).toMatchObject({
      method: 'POST',
      path: '/x/',
      query: { a: ['1', '2'], b: ['3'] },
      headers: { 'x-a': 'v' },
      hasBody: true,
      body: { n: 1 },
    });
    expect(i.response!.rules).toEqual({
      body: { '$.k': { matchers: [{ match: 'regex', regex: '^v$' }] } },
      header: { 'Content-Type': { matchers: [{ match: 'regex', regex: 'json' }] } },
    });
  });

  test('V3: messages (contents as they are), providerStates with params, query as lists', () => {
    const p = parseAnyPact(
      pact({
        metadata: { pactSpecification: { version: '3.0.0' } },
        messages: [
          {
            description: 'm',
            providerStates: [{ name: 's', params: { a: 1 } }],
            contents: { event: 'e' },
            metadata: { contentType: 'application/json' },
          },
        ],
      }),
      'f',
    );
    expect(p.interactions[0]).toMatchObject({
      kind: 'message',
      type: 'Asynchronous/Messages',
      states: [{ name: 's', params: { a: 1 } }],
      message: { hasContents: true, contents: { event: 'e' }, contentType: 'application/json' },
    });
  });

  test('V4: bodies as {content}, an encoded JSON string body decoded, path and status rules kept', () => {
    const p = parseAnyPact(
      pact({
        interactions: [
          {
            type: 'Synchronous/HTTP',
            description: 'h',
            pending: true,
            request: {
              method: 'GET',
              path: '/y/',
              headers: { A: ['1', '2'] },
              matchingRules: { path: { combine: 'AND', matchers: [{ match: 'regex', regex: '^/y/$' }] } },
            },
            response: {
              status: 200,
              body: { content: Buffer.from('{"a":1}').toString('base64'), contentType: 'application/json', encoded: 'base64' },
            },
          },
          { type: 'Synchronous/Messages', description: 'sync' },
        ],
      }),
      'f',
    );
    const [h, sync] = p.interactions;
    expect(h).toMatchObject({
      kind: 'http',
      pending: true,
      request: { headers: { a: '1, 2' }, hasBody: false },
      response: { hasBody: true, body: { a: 1 } },
    });
    expect(h!.request!.rules.path).toEqual({ '': { combine: 'AND', matchers: [{ match: 'regex', regex: '^/y/$' }] } });
    expect(sync).toMatchObject({ kind: 'other', type: 'Synchronous/Messages' });
  });

  test('usage errors: missing, not JSON (nothing of the text quoted), not a pact', () => {
    expect(() => readAnyPact(join(dir, 'none.json'))).toThrow(/no such file/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"client_secret": "s3cret-value", ');
    try {
      readAnyPact(bad);
      expect.unreachable();
    } catch (e) {
      expect((e as { code: string }).code).toBe('PCC_USAGE');
      expect((e as Error).message).toMatch(/is not JSON/);
      expect((e as Error).message).not.toContain('s3cret');
    }
    for (const [value, why] of [
      [[], 'not a JSON object'],
      [{ consumer: { name: 'c' } }, 'no consumer.name or provider.name'],
      [pact({}), 'no interactions or messages array'],
      [pact({ interactions: [1] }), 'interaction 0 is not an object'],
    ] as const) {
      expect(() => parseAnyPact(value, 'f')).toThrow(`f: is not a pact file (${why})`);
    }
  });
});
