import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/exchange.ts';
import { REDACTED, Redactor } from './redactor.ts';

describe('Redactor', () => {
  it('replaces registered values in text, longest first, and ignores too-short values', () => {
    const r = new Redactor(['abcd', 'abcdefgh']);
    r.register('ok', 42, undefined);
    expect(r.size).toBe(2);
    expect(r.redactText('x abcdefgh y abcd z ok')).toBe(`x ${REDACTED} y ${REDACTED} z ok`);
  });

  it('redacts each of many secrets learned one at a time, longest first even when learned after a shorter one', () => {
    const r = new Redactor();
    const tokens = Array.from({ length: 200 }, (_, i) => `tok-${i.toString(36).padStart(4, '0')}-${'x'.repeat(i % 7)}z`);
    for (const [i, t] of tokens.entries()) {
      r.register(t);
      // Redacted from the record that revealed it on, whether or not the pattern was built since.
      expect(r.redactText(`a ${t} b ${tokens[i >> 1]}`)).toBe(`a ${REDACTED} b ${REDACTED}`);
    }
    expect(r.redactText(tokens.join(','))).toBe(tokens.map(() => REDACTED).join(','));
    // A secret holding a known one, learned after it: the whole of it goes, no tail left.
    r.register('tok-0000-z');
    r.register('tok-0000-z-and-more');
    expect(r.redactText('[tok-0000-z-and-more] [tok-0000-z]')).toBe(`[${REDACTED}] [${REDACTED}]`);
    // A secret found in the marker itself does not garble what was replaced.
    r.register('DACT');
    expect(r.redactText('tok-0001-xz DACT')).toBe(`${REDACTED} ${REDACTED}`);
  });

  it('also finds a secret in its JSON-escaped form', () => {
    const secret = 'pa"ss\\word';
    const r = new Redactor([secret]);
    const raw = JSON.stringify({ note: `is ${secret}` });
    expect(r.redactText(raw)).toBe(`{"note":"is ${REDACTED}"}`);
  });

  it('redacts "secret_field": "..." in raw text even for unknown values, and can learn them', () => {
    const r = new Redactor();
    const raw = '{"access_token" : "tok-from-text", "scope":"default"';
    expect(r.redactText(raw)).toBe(`{"access_token" : "${REDACTED}", "scope":"default"`);
    r.learnFromText(raw);
    expect(r.redactText('Bearer tok-from-text')).toBe(`Bearer ${REDACTED}`);
  });

  it('redactValue: secret fields at any depth, strings scrubbed, null kept, input untouched', () => {
    const r = new Redactor(['known-value']);
    const input = { a: [{ client_secret: 'x-secret' }], webhook_secret_key: null, note: 'has known-value', n: 3 };
    expect(r.redactValue(input)).toEqual({ a: [{ client_secret: REDACTED }], webhook_secret_key: null, note: `has ${REDACTED}`, n: 3 });
    expect(input.a[0]?.client_secret).toBe('x-secret');
  });

  it('redactHeaders: Authorization keeps its scheme only; other headers are scrubbed', () => {
    const r = new Redactor(['sekret-1']);
    expect(r.redactHeaders({ authorization: 'Bearer abc.def', 'Proxy-Authorization': 'Basic Zm9v', x: 'v sekret-1' })).toEqual({
      authorization: `Bearer ${REDACTED}`,
      'Proxy-Authorization': `Basic ${REDACTED}`,
      x: `v ${REDACTED}`,
    });
    expect(r.redactHeaders({ authorization: 'garbage' })).toEqual({ authorization: REDACTED });
  });

  it('redactExchange learns from the response and the Authorization header before redacting', () => {
    const r = new Redactor();
    const raw = '{"client_id":"c1","client_secret":"cs-learned","webhook_secret_key":"wh-learned"}';
    const exchange: Exchange = {
      seq: 1,
      startedAt: '2024-01-01T00:00:00.000Z',
      durationMs: 1,
      request: {
        method: 'POST',
        url: 'http://h/v1/pay-connect/pair/',
        path: '/v1/pay-connect/pair/',
        headers: { authorization: 'Bearer tok-in-header' },
        body: { otp: '1234' },
      },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.parse(raw), rawBody: raw },
    };
    const out = r.redactExchange(exchange);
    expect(out.request.headers.authorization).toBe(`Bearer ${REDACTED}`);
    expect(out.response?.body).toEqual({ client_id: 'c1', client_secret: REDACTED, webhook_secret_key: REDACTED });
    expect(out.response?.rawBody).not.toMatch(/cs-learned|wh-learned/);
    expect(out.request.body).toEqual({ otp: '1234' });
    expect(r.redactText('cs-learned wh-learned tok-in-header')).toBe(`${REDACTED} ${REDACTED} ${REDACTED}`);
    expect(exchange.response?.rawBody).toBe(raw);
  });

  it('a record redactExchange made is scrubbed again only once a secret was learnt since', () => {
    const r = new Redactor();
    const exchange: Exchange = {
      seq: 1,
      startedAt: '2024-01-01T00:00:00.000Z',
      durationMs: 1,
      request: { method: 'POST', url: 'http://h/x', path: '/x', headers: {}, body: { note: 'later-secret' } },
      response: { status: 200, headers: {}, body: { ok: true }, rawBody: '{"ok":true}' },
    };
    const record = r.redactExchange(exchange);
    const line = { kind: 'exchange', exchange: record };
    // The transcript's line holds the record itself: nothing to scrub, nothing copied.
    expect(r.redactValue(line).exchange).toBe(record);
    r.register('later-secret');
    const again = r.redactValue(line);
    expect(again.exchange).not.toBe(record);
    expect(again.exchange.request.body).toEqual({ note: REDACTED });
    expect(JSON.stringify(again)).not.toContain('later-secret');
    // A copy is no record: it is walked again each time (a copy's objects may be anyone's to change).
    expect(r.redactValue(again.exchange)).not.toBe(again.exchange);
  });

  it('a thousand secrets, across several patterns: each scrubbed, one that holds another whole', () => {
    const tokens = Array.from({ length: 1000 }, (_, i) => `tok-${i.toString(36).padStart(6, '0')}-${'k'.repeat(20)}`);
    const holder = `${tokens[999]}-and-more`;
    const r = new Redactor([...tokens, holder]);
    expect(r.redactText(`a ${holder} b ${tokens[3]} c ${tokens[600]} d ${tokens[999]}`)).toBe(
      `a ${REDACTED} b ${REDACTED} c ${REDACTED} d ${REDACTED}`,
    );
  });
});
