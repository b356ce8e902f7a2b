/**
 * The cost of scrubbing a record as a worker's redactor grows: every exchange's strings pass through
 * redactText, and a worker learns a client secret, a webhook key and tokens per pairing and renewal.
 * Prints, for a growing number of known secrets: the time to learn them one at a time with ten
 * redactText calls between (as a worker learns a token and records the exchange that revealed it),
 * then milliseconds per 10,000 redactText calls on a transaction's answer (0.65 kB of JSON); the
 * secrets are random 43-character tokens, as a service's access tokens are. Asserts nothing.
 *
 *   npx tsx bench/redactor.ts
 */
import { randomBytes } from 'node:crypto';
import { Redactor } from '../src/client/redactor.ts';

const text = JSON.stringify({
  transaction_id: '3f2a9c1e-1b2c-4d5e-8f90-123456789abc',
  status: 'SUCCESS',
  amount: 1234,
  currency: 'EUR',
  client_transaction_id: 'abc-123',
  payment_method: 'CARD',
  card: { brand: 'VISA', last4: '4242' },
  events: Array.from({ length: 6 }, (_, i) => ({ at: '2026-11-28T22:10:07.000Z', status: 'IN_PROGRESS', note: `step ${i}` })),
});
for (const secrets of [10, 100, 300, 1000]) {
  const r = new Redactor();
  const l0 = performance.now();
  for (let i = 0; i < secrets; i++) {
    r.register(randomBytes(32).toString('base64url'));
    for (let k = 0; k < 10; k++) r.redactText(text);
  }
  const learning = performance.now() - l0;
  r.redactText(text);
  const t0 = performance.now();
  for (let i = 0; i < 10_000; i++) r.redactText(text);
  console.log(
    `${String(r.size).padStart(5)} known secrets: learnt in ${learning.toFixed(0).padStart(5)} ms; ${(performance.now() - t0).toFixed(1).padStart(7)} ms per 10,000 redactText calls`,
  );
}
