/**
 * For the simulator's own tests: every answer the tests see is checked against the contract's
 * compiled validators (the generated tables, not the harness's checks), so each sandbox.md row that a
 * test drives also proves the answer's shape. Only while no fault switch is on: faults break shapes
 * on purpose.
 */
import { operations, validators } from '../generated/contract.ts';

/** How many answers were validated, by operation and status (a test asserts coverage with it). */
export const validated = new Map<string, number>();

const compiled = operations.map((o) => ({ o, re: new RegExp(o.pattern) }));

/** Throws when an answer to a contract operation does not match the contract. */
export function assertMatchesContract(method: string, path: string, status: number, text: string): void {
  const p = path.split('?')[0]!;
  const hit = compiled.find((c) => c.o.method === method && c.re.test(p));
  if (!hit) return; // not an operation of the contract (unknown paths, 404 without a slash, 405)
  const op = hit.o;
  const entry = op.responses[String(status)];
  if (!entry) throw new Error(`contract: ${op.operationId} answered ${status}, documented: ${Object.keys(op.responses).join(', ')}`);
  const key = `${op.operationId} ${status}`;
  validated.set(key, (validated.get(key) ?? 0) + 1);
  if (entry.schema === null) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`contract: ${key} body is not JSON: ${text.slice(0, 100)}`);
  }
  const validate = validators[entry.schema]!;
  if (!validate(body))
    throw new Error(`contract: ${key} body does not match ${entry.schema}: ${JSON.stringify(validate.errors)}\n${text.slice(0, 300)}`);
}
