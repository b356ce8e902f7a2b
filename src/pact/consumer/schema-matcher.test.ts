/** JSON Schema -> Pact matchers: what each part of a schema becomes. */
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, test } from 'vitest';
import { DATE_TIME_PATTERN, URI_PATTERN, anythingBut, enumPattern, notEndingWith, notStartingWith, schemaToMatcher } from '../index.ts';

const rule = (m: unknown) => m as { 'pact:matcher:type': string; regex?: string; value?: unknown; min?: number };

describe('schemaToMatcher', () => {
  const slip = schemaToMatcher('PrintSlip', {
    transaction_id: 'tx_1',
    terminal_id: 'T1',
    organization: { full_name: 'M', country: 'SI', address: 'A', postal_code: '1000', city: 'L', region: null },
    point_of_sale: { full_name: 'P' },
    amount: 1250,
    tip_amount: 0,
    total_amount: 1250,
    currency: 'EUR',
    status: 'SUCCESS',
    payment_method: 'CARD',
    payment_option: 'VISA',
    tags: ['charge'],
    timezone: 'Europe/Ljubljana',
    created_at: '2026-11-22T10:15:00Z',
    digital_slip: 'https://slips.example/1.pdf',
  });

  test('types, enums, patterns and formats become type, regex and integer matchers', () => {
    expect(rule(slip.transaction_id)['pact:matcher:type']).toBe('type');
    expect(rule(slip.amount)['pact:matcher:type']).toBe('integer');
    expect(rule(slip.status).regex).toBe(
      enumPattern(['INITIATED', 'IN_PROGRESS', 'SUCCESS', 'CANCELED', 'DECLINED', 'REVERTED', 'EXPIRED', 'FAILED']),
    );
    expect(rule(slip.currency).regex).toBe('^[A-Z]{3}$');
    expect(rule(slip.created_at).regex).toBe(DATE_TIME_PATTERN);
    expect(rule(slip.digital_slip).regex).toBe(URI_PATTERN);
    expect(rule((slip.organization as Record<string, unknown>).country).regex).toBe('^[A-Z]{2}$');
  });

  test('arrays become eachLike of their item; a response keeps only required fields (and the included ones)', () => {
    expect(rule(slip.tags)['pact:matcher:type']).toBe('type');
    expect(rule(slip.tags).min).toBe(1);
    expect(slip).not.toHaveProperty('payment_option');
    expect(slip.organization).not.toHaveProperty('region');
    const rec = schemaToMatcher('TransactionRecord', { status: 'SUCCESS', amount: 5, currency: 'EUR' }, { include: ['amount'] });
    expect(Object.keys(rec).sort()).toEqual(['amount', 'status']);
  });

  test('a request keeps exactly the keys sent; injected matchers are kept as they are', () => {
    const otp = MatchersV3.regex('^[0-9]{6}$', '123456');
    const req = schemaToMatcher('PairRequest', { name: 'n', otp: '123456' }, { mode: 'request', inject: { otp } });
    expect(Object.keys(req)).toEqual(['name', 'otp']);
    expect(req.otp).toBe(otp);
  });

  test('an example the schema refuses, or a field it does not define, is a bug of the catalogue', () => {
    expect(() => schemaToMatcher('PreauthRequest', { amount: 0 })).toThrow(/does not validate/);
    expect(() => schemaToMatcher('PreauthRequest', { amount: 5, note: 'x' }, { mode: 'request' })).toThrow(/does not define/);
  });
});

test('anythingBut matches every string except the word', () => {
  const re = new RegExp(anythingBut('CARD'));
  for (const s of ['', 'C', 'CAR', 'CARDS', 'PCC_NO_SUCH_METHOD', 'card', 'XARD', 'CXRD', 'CAXD', 'CARX']) expect(re.test(s), s).toBe(true);
  expect(re.test('CARD')).toBe(false);
});

test('notStartingWith and notEndingWith: every non-blank string but those with the prefix or suffix', () => {
  const token = new RegExp(`^Bearer ${notStartingWith('pcc-invalid-')}$`);
  for (const s of ['example-access-token', 'p', 'pcc-invalid', 'pcc-invalidX-1', 'xpcc-invalid-1'])
    expect(token.test(`Bearer ${s}`), s).toBe(true);
  for (const s of ['pcc-invalid-', 'pcc-invalid-abc', '', 'a b']) expect(token.test(`Bearer ${s}`), s).toBe(false);
  const id = new RegExp(`^${notEndingWith('-other')}$`);
  for (const s of ['integrator-0042', 'other', 'a', 'x-othex', '-otherx']) expect(id.test(s), s).toBe(true);
  for (const s of ['integrator-0042-other', '-other', '', 'a b']) expect(id.test(s), s).toBe(false);
});
