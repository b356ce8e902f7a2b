/**
 * The shell of the judged commands (check-receiver, certify-client, check-pact): what they share once
 * their subject is judged. The run's facts are made by the one builder (report/run-info.ts), the
 * reports by the one writer, the transcript beside them, and the closing lines are said alike. One
 * error policy for all three ({@link judgedErrors}): a toolkit error is its message and exit 2;
 * anything else is a bug of ours and goes up to main, which says so (PCC_INTERNAL).
 */
import { type RunIo, isToolkitError } from '../core/index.ts';
import { type RecordReportsResult, type RunFacts, type RunInfo, type RunRecord, runInfoOf, writeRecordReports } from '../report/index.ts';
import type { CommandTranscript } from '../transcript/command-transcript.ts';
import { summaryExtras } from '../transcript/summary-extras.ts';

/** What a judged command found, ready for the reports. */
export interface Judgement {
  record: RunRecord;
  /** The run's facts but those every command shares (run-info.ts's {@link runInfoOf}). */
  facts: RunFacts;
  /** What is certified, and the capabilities that must each have run with no failure. */
  certification: { subject: string; required: string[] };
  /** The command's transcript and its header's own parts (the info and summary are the shell's). */
  transcript?: { tx: CommandTranscript; options: Record<string, unknown>; disabledChecks: readonly string[] };
}

/** The reports folder and the HTML switch: every judged command takes run's report flags. */
export interface JudgedOutput {
  reportsDir: string;
  html: boolean;
}

/** What the shell wrote: the writer's result and the run's facts as the reports hold them. */
export type Judged = RecordReportsResult & { info: RunInfo };

/**
 * Writes a judged command's reports (and its transcript, once the reports hold the scrubbed record).
 * The reports folder is the command's to prepare before it judges: a folder that cannot be used is
 * said before anything is sent.
 */
export async function writeJudged(io: RunIo, out: JudgedOutput, j: Judgement): Promise<Judged> {
  const info = runInfoOf(j.facts);
  const transcript = j.transcript;
  const result = await writeRecordReports({
    dir: out.reportsDir,
    record: j.record,
    info,
    html: out.html,
    certification: j.certification,
    stderr: io.stderr,
    ...(transcript
      ? {
          onRecord: async (scrubbed: RunRecord, summary: RecordReportsResult['summary']) => {
            await transcript.tx.write(
              out.reportsDir,
              {
                info,
                settings: { profile: info.profile, strict: info.strict, disabledChecks: [...transcript.disabledChecks] },
                options: transcript.options,
                summary: summaryExtras(summary),
              },
              scrubbed,
            );
          },
        }
      : {}),
  });
  return { ...result, info };
}

/** `reports: summary.json, certification.md, allure-report/index.html`: where a judged command's reports are. */
export function reportsLine(r: RecordReportsResult): string {
  return `reports: ${r.reports.summary}, ${r.reports.certificationMd}${r.reports.allureReport ? `, ${r.reports.allureReport}/index.html` : ''}\n`;
}

/** The judged commands' one error policy: a toolkit error is its message and exit 2; a bug goes up to main. */
export async function judgedErrors(io: RunIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (!isToolkitError(e)) throw e;
    io.stderr(`${e.toUserMessage()}\n`);
    return 2;
  }
}
