/**
 * The simulator's correct answers are typed with the contract's schemas: `npm run typecheck` fails
 * when any `@ts-expect-error` below stops being an error, i.e. when a misspelt field, a missing
 * required field or a value outside an enum would compile again. The runtime tests pin `broken`.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  Configuration,
  OperationRecord,
  PairingResult,
  PrintSlip,
  TokenResult,
  TransactionCreated,
  TransactionRecord,
} from '../generated/schema-types.ts';
import { broken, type Broken } from './broken.ts';
import { configRecord, operationRecord, printSlip, statusRecord } from './records.ts';

const slip: PrintSlip = {
  transaction_id: 't-1',
  terminal_id: '80000001',
  organization: { full_name: 'Shop d.o.o.', country: 'SI', address: 'Main 1', postal_code: '1000', city: 'Ljubljana' },
  point_of_sale: { full_name: 'Till 1' },
  amount: 1000,
  tip_amount: 0,
  total_amount: 1000,
  currency: 'EUR',
  status: 'SUCCESS',
  payment_method: 'CARD',
  tags: ['charge'],
  timezone: 'Europe/Ljubljana',
  created_at: '2026-11-22T05:31:56Z',
  digital_slip: 'https://slips.example/t-1.pdf',
};

describe('the simulator answers typed from the contract', () => {
  it('types every view of the model with its schema', () => {
    expectTypeOf(statusRecord).returns.toEqualTypeOf<TransactionRecord>();
    expectTypeOf(printSlip).returns.toEqualTypeOf<PrintSlip | Broken>();
    expectTypeOf(operationRecord).returns.toEqualTypeOf<OperationRecord | Broken>();
    expectTypeOf(configRecord).returns.toEqualTypeOf<Configuration | Broken>();
  });

  it('does not compile a misspelt, missing or out-of-enum field in a correct answer', () => {
    const record: TransactionRecord = {
      status: 'SUCCESS',
      // @ts-expect-error misspelt: the contract says transaction_id
      transacton_id: 't-1',
    };
    const withSpread: PrintSlip = {
      ...slip,
      // @ts-expect-error misspelt beside a spread: the contract says digital_slip
      digital_slp: 'https://slips.example/t-1.pdf',
    };
    const { digital_slip: _dropped, ...withoutSlip } = slip;
    // @ts-expect-error digital_slip is required in a print slip
    const missing: PrintSlip = withoutSlip;
    // @ts-expect-error webhook_secret_key is required (null when there is no webhook URL)
    const pairing: PairingResult = { pay_connect_id: 'p', pay_connect_name: 'n', terminal_id: '8', client_id: 'c', client_secret: 's' };
    const token: TokenResult = {
      access_token: 'a',
      // @ts-expect-error expires_in is a string of seconds
      expires_in: 3600,
      token_type: 'Bearer',
      scope: 'default',
    };
    // @ts-expect-error COMPLETED is not a transaction status
    const status: TransactionRecord = { status: 'COMPLETED' };
    // @ts-expect-error the created answer names transaction_id
    const created: TransactionCreated = { id: 't-1' };
    expect([record, withSpread, missing, pairing, token, status, created]).toHaveLength(7);
  });

  it('makes a schema-breaking fault go through broken: the typed answer cannot be edited out of its schema', () => {
    const typed: PrintSlip = { ...slip };
    // @ts-expect-error slip.amount-as-string cannot write a string into the typed slip
    typed.amount = '1000';
    // @ts-expect-error slip.missing-digital-slip cannot delete a required field of the typed slip
    delete typed.digital_slip;
    expect(typed).toBeDefined();
  });
});

describe('broken', () => {
  it('edits a copy, keeping the key order, and leaves the typed answer alone', () => {
    const out = broken(slip, (s) => {
      s.amount = '1000';
      delete s.digital_slip;
    });
    expect(Object.keys(out)).toEqual(Object.keys(slip).filter((k) => k !== 'digital_slip'));
    expect(out.amount).toBe('1000');
    expect(slip.amount).toBe(1000);
    expect(slip.digital_slip).toBe('https://slips.example/t-1.pdf');
  });

  it('serialises an answer no fault touched exactly as the typed one', () => {
    expect(JSON.stringify(broken(slip, () => undefined))).toBe(JSON.stringify(slip));
  });
});
