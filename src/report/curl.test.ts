import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlForDelivery, curlForExchange, curlPreamble, shellQuote } from './curl.ts';

describe('curl lines', () => {
  it('writes a redacted bearer as $PAYCONNECT_TOKEN, in double quotes so the shell expands it', () => {
    const line = curlForExchange({
      request: {
        method: 'GET',
        url: 'http://127.0.0.1:1/v1/pay-connect/config/',
        path: '/v1/pay-connect/config/',
        headers: {
          accept: 'application/json',
          authorization: 'Bearer [REDACTED]',
          'x-pay-connect-integrator-id': 'acme',
          'content-length': '0',
        },
      },
    });
    expect(line).toBe(
      [
        "curl -sS -i 'http://127.0.0.1:1/v1/pay-connect/config/'",
        "-H 'accept: application/json'",
        '-H "authorization: Bearer $PAYCONNECT_TOKEN"',
        "-H 'x-pay-connect-integrator-id: acme'",
      ].join(' \\\n  '),
    );
    expect(curlPreamble(line)).toContain('# set PAYCONNECT_TOKEN');
  });

  it('splices redacted secret fields of a JSON body in as shell variables, and quotes the rest', () => {
    const line = curlForExchange({
      request: {
        method: 'POST',
        url: 'http://h/v1/auth/token/',
        path: '/v1/auth/token/',
        headers: { 'content-type': 'application/json' },
        body: { grant_type: 'client_credentials', client_id: "o'brien", client_secret: '[REDACTED]' },
      },
    });
    expect(line).toContain('-X POST');
    expect(line).toContain(
      `--data-raw '{"grant_type":"client_credentials","client_id":"o'\\''brien","client_secret":"'"$PAYCONNECT_CLIENT_SECRET"'"}'`,
    );
    expect(line).not.toContain('[REDACTED]');
  });

  it('sends a raw body as it was sent', () => {
    expect(curlForExchange({ request: { method: 'POST', url: 'http://h/x/', path: '/x/', headers: {}, body: '{not json' } })).toContain(
      "--data-raw '{not json'",
    );
  });

  it("writes an oversized body's padding as a command that prints it: the same bytes, one line", () => {
    const body = `{"amount":100,"pad":"${'x'.repeat(70_000)}"}`;
    const line = curlForExchange({ request: { method: 'POST', url: 'http://h/x/', path: '/x/', headers: {}, body } });
    expect(line.length).toBeLessThan(300);
    const arg = line.slice(line.indexOf('--data-raw ') + '--data-raw '.length);
    // What a POSIX shell makes of the argument is the body that was sent.
    expect(execFileSync('sh', ['-c', `printf '%s' ${arg}`], { encoding: 'utf8' })).toBe(body);
  });

  it('replays a webhook delivery with its signature header', () => {
    const line = curlForDelivery({
      method: 'POST',
      url: 'http://127.0.0.1:9/webhook',
      headers: { 'content-type': 'application/json', signature: 'abc', 'user-agent': 'x' },
      rawBody: '{"event":"transaction.success"}',
    });
    expect(line).toContain("'http://127.0.0.1:9/webhook'");
    expect(line).toContain("-H 'signature: abc'");
    expect(line).not.toContain('user-agent');
    expect(line).toContain(`--data-raw '{"event":"transaction.success"}'`);
  });

  it('quotes for a POSIX shell', () => {
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
  });
});
