/**
 * The cost of scrubbing a record as a worker's redactor grows: every exchange's strings pass through
 * redactText, and a worker learns a client secret, a webhook key and tokens per pairing and renewal.
 * Prints, for a growing number of known secrets: the time to learn them one at a time with ten
 * redactText calls between (as a worker learns a token and records the exchange that revealed it),
 * then milliseconds per 10,000 redactText calls on a 0.5 kB JSON text; asserts nothing.
 *
 *   npx tsx bench/redactor.ts
 */
import { Redactor } from '../src/client/redactor.ts';

const text = JSON.stringify({ status: 'SUCCESS', note: 'x'.repeat(300), values: Array.from({ length: 20 }, (_, i) => `value ${i}`) });
for (const secrets of [10, 100, 300, 1000]) {
  const r = new Redactor();
  const l0 = performance.now();
  for (let i = 0; i < secrets; i++) {
    r.register(`secret-${i}-${i.toString(36).padStart(12, 'q')}`);
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
