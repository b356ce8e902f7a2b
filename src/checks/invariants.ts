/**
 * Invariants the spec states about money and codes, run on every exchange whose body carries the
 * fields (print slips, status records) and on webhook data.
 */
import type { Exchange } from '../core/index.ts';
import { defineCheck, fail, pass, skip } from './check.ts';
import { isObj } from './guards.ts';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** ISO 4217 alpha-3: three capitals that ICU knows as a currency. */
export function isIso4217(code: unknown): boolean {
  return typeof code === 'string' && /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code);
}

/** ISO 3166-1 alpha-2: two capitals that ICU names as a region (it echoes unknown codes back). */
export function isIso3166Alpha2(code: unknown): boolean {
  return typeof code === 'string' && /^[A-Z]{2}$/.test(code) && regionNames.of(code) !== code;
}

type Obj = Record<string, unknown>;

/** The object to inspect: a response body, or a webhook's `data`. */
function subject(input: Exchange | { body: unknown }): Obj | undefined {
  const body = 'seq' in input ? input.response?.body : input.body;
  if (!isObj(body)) return undefined;
  return isObj(body.data) && 'event' in body ? body.data : body;
}

/** `total_amount = amount + tip_amount` (spec, Transaction print slip). */
export const totalAmount = defineCheck<Exchange | { body: unknown }, 'invariant.total-amount'>({
  id: 'invariant.total-amount',
  clause: 'spec#transaction-print-slip',
  source: 'spec',
  title: 'total_amount equals amount + tip_amount',
  auto: true,
  run(input) {
    const o = subject(input);
    if (!o || !['amount', 'tip_amount', 'total_amount'].every((k) => Number.isInteger(o[k])))
      return skip('no integer amount, tip_amount and total_amount');
    const [a, t, total] = [o.amount, o.tip_amount, o.total_amount] as number[];
    if (a! + t! === total) return pass();
    return fail({
      message: `total_amount ${total} != amount ${a} + tip_amount ${t}`,
      evidence: { amount: a, tip_amount: t, total_amount: total },
    });
  },
});

/** `currency` is an ISO 4217 alpha-3 code (spec, Transaction print slip). */
export const currencyCode = defineCheck<Exchange | { body: unknown }, 'invariant.currency'>({
  id: 'invariant.currency',
  clause: 'spec#transaction-print-slip',
  source: 'spec',
  title: 'currency is an ISO 4217 alpha-3 code',
  auto: true,
  run(input) {
    const o = subject(input);
    if (!o || !('currency' in o) || !('transaction_id' in o)) return skip('no transaction currency');
    if (o.currency === null || o.currency === undefined) return skip('currency not set');
    return isIso4217(o.currency)
      ? pass()
      : fail({ message: `currency ${JSON.stringify(o.currency)} is not an ISO 4217 alpha-3 code`, evidence: { currency: o.currency } });
  },
});

/** `organization.country` is an ISO 3166-1 alpha-2 code (spec, organization object). */
export const countryCode = defineCheck<Exchange | { body: unknown }, 'invariant.country'>({
  id: 'invariant.country',
  clause: 'spec#transaction-print-slip',
  source: 'spec',
  title: 'organization.country is an ISO 3166-1 alpha-2 code',
  auto: true,
  run(input) {
    const org = subject(input)?.organization;
    if (!isObj(org) || !('country' in org)) return skip('no organization.country');
    return isIso3166Alpha2(org.country)
      ? pass()
      : fail({
          message: `organization.country ${JSON.stringify(org.country)} is not an ISO 3166-1 alpha-2 code`,
          evidence: { country: org.country },
        });
  },
});
