/**
 * `check-pact`: an integrator's consumer pacts against the contract (pact-possible.ts), as a report
 * whose every string has passed the redactor: the secrets a pact holds (Authorization values,
 * client_secret, access_token, webhook_secret_key fields) are learned from the files first.
 */
import { Redactor, SECRET_FIELDS } from '../../client/index.ts';
import { type AnyPact, readAnyPact } from '../common/any-pact.ts';
import { type InteractionPossibility, checkPactPossible } from './pact-possible.ts';

/** The verdict on one pact file. */
export interface PactFileCheck {
  file: string;
  consumer: string;
  provider: string;
  specification: string;
  interactions: InteractionPossibility[];
}

/** The verdict on every pact file checked. */
export interface CheckPactReport {
  /** Every interaction of every file is possible under the contract. */
  ok: boolean;
  files: PactFileCheck[];
}

/** JSON fields whose values are secret in an integrator's pact. */
export const PACT_SECRET_FIELDS: readonly string[] = [...SECRET_FIELDS, 'refresh_token', 'password'];

/** Registers with `redactor` every secret `pact` holds: secret fields anywhere, Authorization header values. */
export function learnPactSecrets(redactor: Redactor, pact: AnyPact): void {
  redactor.learnFrom(pact.raw);
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (/^(?:proxy-)?authorization$/i.test(k)) {
          for (const value of [x].flat()) {
            if (typeof value !== 'string') continue;
            redactor.register(value, value.replace(/^\s*\S+\s+/, '').trim());
          }
        } else visit(x);
      }
    }
  };
  visit(pact.raw);
}

/** A redactor that knows the secrets of `pacts`. */
export function pactRedactor(pacts: readonly AnyPact[]): Redactor {
  const redactor = new Redactor([], { fields: PACT_SECRET_FIELDS });
  for (const p of pacts) learnPactSecrets(redactor, p);
  return redactor;
}

/**
 * Reads every file (a usage error, PCC_USAGE, for the first that is not a readable pact) and checks
 * each interaction; the report is redacted.
 */
export function checkPactFiles(files: readonly string[]): CheckPactReport {
  const pacts = files.map((f) => readAnyPact(f));
  const redactor = pactRedactor(pacts);
  const checked: PactFileCheck[] = pacts.map((p) => ({
    file: p.file,
    consumer: p.consumer,
    provider: p.provider,
    specification: p.specification,
    interactions: checkPactPossible(p),
  }));
  const report: CheckPactReport = { ok: checked.every((f) => f.interactions.every((i) => i.possible)), files: checked };
  return redactor.redactValue(report);
}

/** `"description" (given a, b)`: how an interaction is named in the report. */
export function interactionLabel(i: Pick<InteractionPossibility, 'description' | 'states'>): string {
  return `"${i.description}"${i.states.length ? ` (given ${i.states.join(', ')})` : ''}`;
}

/** The report as text: a line per file, one line per impossible interaction with each reason, the verdict. */
export function formatCheckPact(r: CheckPactReport): string {
  const lines: string[] = [];
  for (const f of r.files) {
    const bad = f.interactions.filter((i) => !i.possible);
    lines.push(
      `${f.file}: ${f.consumer} -> ${f.provider}, Pact ${f.specification}, ${f.interactions.length} ` +
        `interaction(s), ${bad.length ? `${bad.length} not possible under the contract` : 'all possible under the contract'}`,
    );
    for (const i of bad) lines.push(`  ✗ ${i.kind === 'message' ? '[message] ' : ''}${interactionLabel(i)}: ${i.reasons.join('; ')}`);
  }
  const all = r.files.flatMap((f) => f.interactions);
  const bad = all.filter((i) => !i.possible);
  lines.push(
    r.ok
      ? `PASS: ${all.length} interaction(s) possible under contracts/pay-connect.openapi.yaml`
      : `FAIL: ${bad.length} of ${all.length} interaction(s) not possible under contracts/pay-connect.openapi.yaml`,
  );
  return `${lines.join('\n')}\n`;
}
