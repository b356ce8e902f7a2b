/**
 * docs/rules.md: every rule of every command (run, check-receiver, certify-client, check-pact) with
 * its severity, the clause it judges, the sentence(s) of the documents it enforces (“…”) and its fix,
 * then the rules that are assumptions of ours and the contract's constraints that are ours (`x-ours`),
 * laid out from the rule registry
 * (src/checks/rule-registry.ts), deterministically. The ids are those `--disable-check`, baselines and
 * the reports use; a former id still works and is listed beside the rule that replaced it.
 *   npx tsx scripts/rules-doc.ts           writes docs/rules.md
 *   npx tsx scripts/rules-doc.ts --check   exit 1 when the file is not what it would write (CI)
 */
import { fileURLToPath } from 'node:url';
import { type RuleListing, listRules } from '../src/checks/rule-registry.ts';
import { JUDGES, type Judge } from '../src/checks/rule.ts';
import { AMOUNT_BASIS, type InvalidBasis, OTP_BASIS, PAYMENT_METHOD_BASIS, REQUIRED_BASIS } from '../src/arbitraries/invalid-basis.ts';
import { type OursConstraint, oursConstraintsOf } from '../src/arbitraries/ours.ts';
import { writeOrCheck } from './write-or-check.ts';

/** Where the list is written. */
export const RULES_FILE = fileURLToPath(new URL('../docs/rules.md', import.meta.url));

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (s: string) => `\`${s}\``;

/** A rule's sentences in typographic quotes, one after the other; an assumption says so. */
export function quoteCell(r: { quote: readonly string[]; assumption?: RuleListing['assumption'] }): string {
  if (r.quote.length === 0) return r.assumption ? `none: an assumption of ours (${cell(r.assumption.name)}, below)` : '';
  return r.quote.map((q) => `“${cell(q.replace(/\s+/g, ' ').trim())}”`).join('<br>');
}

/** What each command judges, in a line. */
const WHAT: Readonly<Record<Judge, string>> = {
  run: 'the service (the simulator, a URL, a Pact mock): a breach is for the service team to fix',
  'check-receiver': "an integrator's webhook endpoint, with genuine and forged deliveries",
  'certify-client':
    "an integrator's client, from the recording of its run against the simulator (its webhook endpoint by the same rules as check-receiver)",
  'check-pact': "an integrator's consumer pact, against the contract",
};

function table(rows: readonly RuleListing[], judge: Judge): string[] {
  return [
    '| Rule | Severity | Clause | Quote | Expects | Fix |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const also = r.judges.filter((j) => j !== judge);
      const id = `${code(r.id)}${r.formerly.length ? `<br>formerly ${r.formerly.map(code).join(', ')}` : ''}${also.length ? `<br>also ${also.join(', ')}` : ''}`;
      return `| ${id} | ${r.severity} | ${code(r.clause)} | ${quoteCell(r)} | ${cell(r.title)} | ${cell(r.fix)} |`;
    }),
  ];
}

/** The rules no sentence states, apart. */
function assumptions(rows: readonly RuleListing[]): string[] {
  const mine = rows.filter((r) => r.assumption);
  return [
    '## Assumptions of ours',
    '',
    'A rule no sentence of the three documents states is an assumption of ours, not a requirement: it is a',
    'warning (a failure only with `--strict`), and `--disable-check ID` turns it off. The documents are silent',
    `where these rules speak. ${mine.length} rule${mine.length === 1 ? '' : 's'}.`,
    '',
    '| Rule | Assumption | Judged by | What we assume |',
    '|---|---|---|---|',
    ...mine.map((r) => `| ${code(r.id)} | ${cell(r.assumption!.name)} | ${r.judges.join(', ')} | ${cell(r.assumption!.assumes)} |`),
  ];
}

/** The contract's constraints no document states (`x-ours`): never asserted as "must be refused". */
function oursConstraints(list: readonly OursConstraint[]): string[] {
  return [
    '## Constraints of the contract that are ours',
    '',
    'The contract (contracts/pay-connect.openapi.yaml) is stricter than the documents in places: a pattern, a',
    'length or a format no document states. Each such constraint is marked `x-ours` beside it, and it is',
    'held against no one: the properties never send a body as invalid for breaking one of these alone (an',
    'invalid input is sent only where a document calls it invalid, and its finding quotes that sentence),',
    "and no check of a response, of a client's requests (certify-client) or of a pact (check-pact) counts",
    `an error at one of them. ${list.length} constraint${list.length === 1 ? '' : 's'}.`,
    '',
    '| Schema | Field | Constraint | Value |',
    '|---|---|---|---|',
    ...list.map((c) => `| ${code(c.schema)} | ${code(c.field)} | ${code(c.keyword)} | ${code(cell(c.value))} |`),
  ];
}

/** What the properties send as invalid, and the sentence that makes it so. */
const INVALID_INPUTS: readonly (readonly [string, InvalidBasis])[] = [
  ['an amount that is missing, not an integer, below 1 or above 99,999,999 (every body with an `amount`)', AMOUNT_BASIS],
  ['a pairing OTP that is not six digits (the pairing suite probes `000000` and a consumed one under its own rules)', OTP_BASIS],
  ["a generate `payment_method` that is not a string (so no id of the configuration's)", PAYMENT_METHOD_BASIS],
  [
    'a body without a field the public reference requires (pairing `name`, `otp`; token `grant_type`, `client_id`, `client_secret`)',
    REQUIRED_BASIS,
  ],
];

function invalidInputs(): string[] {
  return [
    '## Invalid inputs',
    '',
    'The properties (`request.invalid-rejected`) send as invalid only what a sentence calls invalid, and the',
    "finding cites that sentence's clause and quotes it. Every other breakage of the contract's schemas (the",
    'type of a field no sentence refuses, a constraint of ours below) is never asserted as "must be refused".',
    '',
    '| Invalid input | Clause | Quote |',
    '|---|---|---|',
    ...INVALID_INPUTS.map(([what, b]) => `| ${cell(what)} | ${code(b.clause)} | ${quoteCell({ quote: b.quote })} |`),
  ];
}

/** The Markdown of docs/rules.md. */
export function rulesDoc(rows: readonly RuleListing[] = listRules(), ours: readonly OursConstraint[] = oursConstraintsOf()): string {
  const ids = new Set(rows.map((r) => r.id));
  const out = [
    '# Rules',
    '',
    '<!-- GENERATED by `npx tsx scripts/rules-doc.ts` from the rule registry (src/checks/rule-registry.ts). Do not edit. -->',
    '',
    'Every rule the toolkit judges by, for every command, from one registry: a rule has one id, one',
    'severity and one fix wherever it is judged, and quotes the sentence(s) of pay-connect-spec.md,',
    'public-profile.md or sandbox.md it enforces (“…”, verbatim; its clause is the heading they are under).',
    "A finding carries its rule's quote; a rule no sentence states is an assumption, listed apart at the end.",
    "Severity comes from the rule's source: a rule of the spec (pay-connect-spec.md) is a **failure**; a rule",
    'of the public or sandbox profile is a **warning**, a failure with `--strict`. A check whose finding names another clause',
    "(the schema a body broke, say) takes that clause's source.",
    '',
    'Turn a rule off with `--disable-check ID` (or `checks: { disable: [ID] }`) on a command that judges it:',
    'it is then neither run nor filed, and the reports say so. An id the command does not judge is a usage',
    'error naming the nearest id and the command whose rule it is. A former id (listed as "formerly") still',
    'works in `--disable-check` and in baselines.',
    '',
    `${ids.size} rules: ${JUDGES.map((j) => `${rows.filter((r) => r.judges.includes(j)).length} judged by ${j}`).join(', ')}.`,
    '',
  ];
  for (const j of JUDGES) {
    const mine = rows.filter((r) => r.judges.includes(j));
    out.push(`## ${j}`, '', `Judges ${WHAT[j]}. ${mine.length} rule${mine.length === 1 ? '' : 's'}.`, '', ...table(mine, j), '');
  }
  out.push(...assumptions(rows), '', ...invalidInputs(), '', ...oursConstraints(ours), '');
  return out.join('\n');
}

function main(argv: readonly string[]): number {
  return writeOrCheck(RULES_FILE, rulesDoc(), argv, 'npx tsx scripts/rules-doc.ts');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
