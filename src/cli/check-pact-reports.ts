/**
 * check-pact's reports: each interaction of each pact file is a test, its impossibilities findings of
 * `pact.interaction-possible` (a failure: a provider that follows the contract cannot satisfy it),
 * written by the same writer as check-receiver's and certify-client's (summary.json, junit.xml, the
 * certification, Allure), so an integrator can hand them over as evidence.
 */
import { interactionPossible } from '../checks/index.ts';
import type { Finding } from '../core/index.ts';
import { CONTRACT_FILE, contractSha256, toolInfo } from '../engine/index.ts';
import { type CheckPactReport, interactionLabel } from '../pact/index.ts';
import { type RecordReportsResult, type RunInfo, type RunRecord, type TestRecord, prepareReportsDir, writeRecordReports } from '../report/index.ts';

/** The capability check-pact's tests are grouped under (and the one its certification requires). */
export const PACT_CAPABILITY = 'pact';
/** The rule every impossibility is a finding of (its clause: the contract, the requirement a pact is judged against). */
export const PACT_POSSIBLE_CHECK = interactionPossible.id;
const CLAUSE = interactionPossible.clause;

/** The run record of a check-pact report: one test per interaction, in file order. */
export function checkPactRecord(report: CheckPactReport, startedAt: string, durationMs: number): RunRecord {
  const tests: TestRecord[] = report.files.flatMap((f) => f.interactions.map((i): TestRecord => {
    const name = `${PACT_CAPABILITY} > ${f.consumer}: ${i.kind === 'message' ? '[message] ' : ''}${interactionLabel(i)}`;
    const findings: Finding[] = i.reasons.map((reason) => ({
      check: PACT_POSSIBLE_CHECK, severity: 'failure', clause: CLAUSE, quote: interactionPossible.quote, message: reason, test: name,
      evidence: { pact: f.file, interaction: i.description, ...(i.operation ? { operation: i.operation } : {}) },
    }));
    return {
      name, capability: PACT_CAPABILITY, clause: CLAUSE, file: f.file, state: i.possible ? 'passed' : 'failed',
      durationMs: 0, findings, errors: [], exchanges: [], exchangeCount: 0, startedAt,
      parameters: { consumer: f.consumer, provider: f.provider, specification: f.specification, ...(i.operation ? { operation: i.operation } : {}), ...(i.states.length ? { states: i.states.join(', ') } : {}) },
    };
  }));
  return { tests, unhandled: [], startedAt, durationMs };
}

/** Writes check-pact's reports into `dir`. */
export async function writeCheckPactReports(o: { dir: string; report: CheckPactReport; startedAt: string; html: boolean; stderr: (s: string) => void }): Promise<RecordReportsResult> {
  await prepareReportsDir(o.dir);
  const finishedAt = new Date().toISOString();
  const record = checkPactRecord(o.report, o.startedAt, Date.parse(finishedAt) - Date.parse(o.startedAt));
  const consumers = [...new Set(o.report.files.map((f) => f.consumer))];
  const info: RunInfo = {
    tool: toolInfo(),
    target: { kind: 'pact-files', baseUrl: o.report.files.map((f) => f.file).join(', ') },
    profile: 'public', terminalMode: 'none', seed: 0, strict: false, integratorId: '', suitesSelected: [],
    contract: { file: CONTRACT_FILE, sha256: contractSha256() }, faults: [], labels: {},
    startedAt: o.startedAt, finishedAt,
  };
  return writeRecordReports({
    dir: o.dir, record, info, html: o.html, stderr: o.stderr,
    certification: { subject: `consumer pact${consumers.length === 1 ? '' : 's'} of ${consumers.join(', ')}`, required: [PACT_CAPABILITY] },
  });
}
