/**
 * A run as `compare` reads it from its reports folder: summary.json (rebuilt from the transcript's
 * test records when absent: a transcript alone is enough), the tests' records and the exchanges and
 * deliveries of the transcript.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Exchange, ToolkitError } from '../core/index.ts';
import type { Summary, TestRecord } from '../report/index.ts';
import { TRANSCRIPT_FILE, readTranscript, rejudgedSummary } from '../transcript/index.ts';
import { type Shapes, shapesOf } from './shapes.ts';

/** What compare knows of one run. */
export interface RunView {
  dir: string;
  summary: Summary;
  tests: Pick<TestRecord, 'name' | 'state' | 'findings' | 'notChecked' | 'blockedBy' | 'skipReason'>[];
  shapes: Shapes;
}

const HINT = 'give the --reports folder of a run, of merge-reports or of a manual session (it holds summary.json and transcript.jsonl.gz)';

/** Reads a reports folder; a missing folder, or one that is not a run's reports, is a usage error naming it. */
export async function loadRun(dir: string, role: 'BASE' | 'CANDIDATE'): Promise<RunView> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ToolkitError('PCC_USAGE', `compare: ${role} ${dir} is not a folder`, HINT);
  const summaryPath = join(dir, 'summary.json');
  if (!existsSync(join(dir, TRANSCRIPT_FILE))) throw new ToolkitError('PCC_USAGE', `compare: ${role} ${dir} is not a reports folder (no ${TRANSCRIPT_FILE})`, HINT);
  const transcript = await readTranscript(dir);
  const tests: RunView['tests'] = [];
  const exchanges: Exchange[] = [];
  const deliveries: { event?: string; rawBody?: unknown }[] = [];
  for (const e of transcript.events) {
    if (e.kind === 'test') tests.push(e.record);
    else if (e.kind === 'exchange') exchanges.push(e.exchange);
    else if (e.kind === 'delivery' && !e.sent && e.delivery.signature === 'valid') deliveries.push({ ...(e.delivery.event ? { event: e.delivery.event } : {}), rawBody: e.delivery.rawBody });
  }
  let summary: Summary;
  if (existsSync(summaryPath)) {
    try {
      summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as Summary;
    } catch (e) {
      throw new ToolkitError('PCC_USAGE', `compare: ${role} ${summaryPath} is not JSON: ${(e as Error).message}`, HINT, { cause: e });
    }
    if (typeof summary?.verdict !== 'string' || !Array.isArray(summary.findings)) throw new ToolkitError('PCC_USAGE', `compare: ${role} ${summaryPath} is not a run's summary`, HINT);
  } else {
    // The summary as rejudge rebuilds one from a transcript: the run's facts from its header.
    const h = transcript.header;
    const records = tests.map((t) => ({ exchanges: [], exchangeCount: 0, errors: [], parameters: {}, capability: '', clause: '', file: '', durationMs: 0, ...t }) as TestRecord);
    summary = rejudgedSummary({ tests: records, unhandled: [...h.run.unhandled], startedAt: h.run.startedAt, durationMs: h.run.durationMs }, h.info, h);
  }
  return { dir, summary, tests, shapes: shapesOf(exchanges, deliveries) };
}
