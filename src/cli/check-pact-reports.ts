/**
 * check-pact's reports: each interaction of each pact file is a test, its impossibilities findings of
 * `pact.interaction-possible` (a failure: a provider that follows the contract cannot satisfy it),
 * written by the judged commands' shell (judged.ts) as check-receiver's and certify-client's are (summary.json, junit.xml, the
 * certification, Allure), so an integrator can hand them over as evidence.
 */
import { interactionPossible } from '../checks/index.ts';
import type { Finding } from '../core/index.ts';
import { type CheckPactReport, interactionLabel } from '../pact/check/index.ts';
import type { RunRecord, TestRecord } from '../report/index.ts';
import type { Judgement } from './judged.ts';

/** The capability check-pact's tests are grouped under (and the one its certification requires). */
export const PACT_CAPABILITY = 'pact';
/** The rule every impossibility is a finding of (its clause: the contract, the requirement a pact is judged against). */
export const PACT_POSSIBLE_CHECK = interactionPossible.id;
const CLAUSE = interactionPossible.clause;

/** The run record of a check-pact report: one test per interaction, in file order. */
export function checkPactRecord(report: CheckPactReport, startedAt: string, durationMs: number): RunRecord {
  const tests: TestRecord[] = report.files.flatMap((f) =>
    f.interactions.map((i): TestRecord => {
      const name = `${PACT_CAPABILITY} > ${f.consumer}: ${i.kind === 'message' ? '[message] ' : ''}${interactionLabel(i)}`;
      const findings: Finding[] = i.reasons.map((reason) => ({
        check: PACT_POSSIBLE_CHECK,
        severity: 'failure',
        clause: CLAUSE,
        quote: interactionPossible.quote,
        message: reason,
        test: name,
        evidence: { pact: f.file, interaction: i.description, ...(i.operation ? { operation: i.operation } : {}) },
      }));
      return {
        name,
        capability: PACT_CAPABILITY,
        clause: CLAUSE,
        file: f.file,
        state: i.possible ? 'passed' : 'failed',
        durationMs: 0,
        findings,
        errors: [],
        exchanges: [],
        exchangeCount: 0,
        startedAt,
        parameters: {
          consumer: f.consumer,
          provider: f.provider,
          specification: f.specification,
          ...(i.operation ? { operation: i.operation } : {}),
          ...(i.states.length ? { states: i.states.join(', ') } : {}),
        },
      };
    }),
  );
  return { tests, unhandled: [], startedAt, durationMs };
}

/** check-pact's judgement, for the judged commands' shell: one test per interaction, and the facts of the run. */
export function checkPactJudgement(report: CheckPactReport, startedAt: string): Judgement {
  const finishedAt = new Date().toISOString();
  const consumers = [...new Set(report.files.map((f) => f.consumer))];
  return {
    record: checkPactRecord(report, startedAt, Date.parse(finishedAt) - Date.parse(startedAt)),
    facts: {
      target: { kind: 'pact-files', baseUrl: report.files.map((f) => f.file).join(', ') },
      profile: 'public',
      terminalMode: 'none',
      seed: 0,
      strict: false,
      integratorId: '',
      labels: {},
      startedAt,
      finishedAt,
    },
    certification: { subject: `consumer pact${consumers.length === 1 ? '' : 's'} of ${consumers.join(', ')}`, required: [PACT_CAPABILITY] },
  };
}
