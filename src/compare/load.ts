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
  /** How its terminal was driven (`auto`, `observe`, `manual`): a manual session's waits are the operator's pace. */
  terminalMode?: string;
}

const WHAT =
  'the reports folder of an earlier run, of merge-reports or of a manual session (it holds summary.json and transcript.jsonl.gz)';

/**
 * How a usage error names the folder: as the user gave it. `compare`'s positionals are BASE and
 * CANDIDATE; `run --compare-to DIR` is named by its flag (and its fix says what to give that flag).
 */
export type RunRole = 'BASE' | 'CANDIDATE' | '--compare-to';

/** Reads a reports folder; a missing folder, or one that is not a run's reports, is a usage error naming it. */
export async function loadRun(dir: string, role: RunRole): Promise<RunView> {
  const [name, hint] =
    role === '--compare-to'
      ? [role, `give --compare-to ${WHAT}, or leave --compare-to out`]
      : [`compare: ${role}`, `give ${role} as ${WHAT}`];
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ToolkitError('PCC_USAGE', `${name} ${dir} is not a folder`, hint);
  const summaryPath = join(dir, 'summary.json');
  if (!existsSync(join(dir, TRANSCRIPT_FILE)))
    throw new ToolkitError('PCC_USAGE', `${name} ${dir} is not a reports folder (no ${TRANSCRIPT_FILE})`, hint);
  const transcript = await readTranscript(dir);
  const tests: RunView['tests'] = [];
  const exchanges: Exchange[] = [];
  const deliveries: { event?: string; rawBody?: unknown }[] = [];
  for (const e of transcript.events) {
    if (e.kind === 'test') tests.push(e.record);
    else if (e.kind === 'exchange') exchanges.push(e.exchange);
    else if (e.kind === 'delivery' && !e.sent && e.delivery.signature === 'valid')
      deliveries.push({ ...(e.delivery.event ? { event: e.delivery.event } : {}), rawBody: e.delivery.rawBody });
  }
  let summary: Summary;
  if (existsSync(summaryPath)) {
    try {
      summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as Summary;
    } catch (e) {
      throw new ToolkitError('PCC_USAGE', `${name} ${summaryPath} is not JSON: ${(e as Error).message}`, hint, { cause: e });
    }
    if (typeof summary?.verdict !== 'string' || !Array.isArray(summary.findings))
      throw new ToolkitError('PCC_USAGE', `${name} ${summaryPath} is not a run's summary`, hint);
  } else {
    // The summary as rejudge rebuilds one from a transcript: the run's facts from its header.
    const h = transcript.header;
    const records = tests.map(
      (t) =>
        ({
          exchanges: [],
          exchangeCount: 0,
          errors: [],
          parameters: {},
          capability: '',
          clause: '',
          file: '',
          durationMs: 0,
          ...t,
        }) as TestRecord,
    );
    summary = rejudgedSummary(
      { tests: records, unhandled: [...h.run.unhandled], startedAt: h.run.startedAt, durationMs: h.run.durationMs },
      h.info,
      h,
    );
  }
  const terminalMode = (transcript.header.info as { terminalMode?: unknown } | undefined)?.terminalMode;
  return { dir, summary, tests, shapes: shapesOf(exchanges, deliveries), ...(typeof terminalMode === 'string' ? { terminalMode } : {}) };
}
