/**
 * `rejudge REPORTS_DIR [--reports OUT] [--no-html]`: the run in REPORTS_DIR judged again from its
 * transcript with the installed toolkit and contract, no network (see transcript/rejudge.ts). Prints
 * what changed against the recorded verdict, what could not be judged again and what was carried
 * over; exits like a run: 0 pass, 1 a failure of the service, 2 a usage error or a bug of ours.
 */
import { ToolkitError } from '../../core/index.ts';
import { REPORT_FLAGS, formatCommandHelp, parseCommandLine, type CommandSpec } from '../../config/index.ts';
import type { RunIo } from '../../engine/index.ts';
import type { FindingKey, RejudgeResult } from '../../transcript/index.ts';
import { defineCommand } from '../command.ts';

/** `rejudge`: one reports folder, and run's report flags (re-judging writes no Allure HTML). */
export const REJUDGE_COMMAND = {
  name: 'rejudge',
  synopsis: '<reports dir> [flags]',
  about:
    'Judges the run in <reports dir> (a run or merge; it holds transcript.jsonl.gz) again from its transcript ' +
    'with the installed toolkit and contract, no network; prints what changed against the recorded verdict.',
  positionals: { what: 'the reports folder of a run or merge' },
  sections: [
    {
      heading: 'Output',
      flags: REPORT_FLAGS.map((f) =>
        f.name === 'reports'
          ? { ...f, description: 'Where the re-judged reports go', defaultText: '<reports dir>/rejudged', envText: undefined }
          : { ...f, description: 'Accepted for symmetry with run: re-judging writes no Allure report', envText: undefined },
      ),
    },
  ],
} as const satisfies CommandSpec;

const HINT = 'run "payconnect-conformance rejudge --help" for the usage';

const line = (f: FindingKey) => `  [${f.check}] ${f.severity} (${f.clause}) ${f.test}: ${f.message}\n`;

/** What `rejudge` prints beside the final table: the differences, then what was not judged again. */
export function formatRejudge(r: Pick<RejudgeResult, 'diff' | 'notRejudgeable' | 'carried'>): string {
  const { diff } = r;
  let out = `verdict: recorded ${diff.verdict.recorded ?? '(no summary.json)'}, re-judged ${diff.verdict.rejudged}\n`;
  const n = diff.added.length + diff.gone.length + diff.changed.length;
  out +=
    n === 0
      ? 'differences: none\n'
      : `differences: ${diff.added.length} new, ${diff.gone.length} gone, ${diff.changed.length} severity changed\n`;
  if (diff.added.length > 0) out += `findings new:\n${diff.added.map(line).join('')}`;
  if (diff.gone.length > 0) out += `findings gone:\n${diff.gone.map(line).join('')}`;
  if (diff.changed.length > 0)
    out += `severities changed:\n${diff.changed.map((f) => line(f).replace(`] ${f.severity}`, `] ${f.was} -> ${f.severity}`)).join('')}`;
  if (r.notRejudgeable.length > 0) {
    out += `not re-judgeable (recorded findings kept): ${r.notRejudgeable.reduce((s, x) => s + x.count, 0)} check invocations\n`;
    out += r.notRejudgeable.map((x) => `  ${x.check} in ${x.test} (${x.count}x): ${x.why}\n`).join('');
  }
  if (r.carried.length > 0)
    out += `carried over as recorded: ${r.carried.length} findings\n${r.carried.map((c) => `  [${c.check}] ${c.test}: ${c.message} (${c.why})\n`).join('')}`;
  return out;
}

export async function rejudgeCommand(argv: string[], _env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const parsed = parseCommandLine(REJUDGE_COMMAND, argv);
  if (parsed.help) {
    io.stdout(formatCommandHelp(REJUDGE_COMMAND));
    return 0;
  }
  if (parsed.positionals.length !== 1) throw new ToolkitError('PCC_USAGE', 'rejudge needs one reports folder', HINT);
  const { rejudgeReports: rejudge } = await import('../../engine/command-rejudge.ts');
  const { formatFinalTable } = await import('../table.ts');
  const result = await rejudge(parsed.positionals[0]!, parsed.values.reports ? { out: parsed.values.reports } : {});
  io.stdout(formatFinalTable(result.record, result.summary, result.reports.summary, result.reports));
  io.stdout(formatRejudge(result));
  return result.exitCode;
}

export default defineCommand({ spec: REJUDGE_COMMAND, run: rejudgeCommand });
