/**
 * `merge-reports DIR...`: the shards' reports folders merged into one (see engine/merge-reports.ts),
 * with the same final table and exit code as a run: 0 pass, 1 a failure of the service, 2 a usage
 * error or a bug of ours (a shard missing or given twice, shards of different runs).
 */
import {
  REPORT_FLAGS,
  argvOf,
  formatCommandHelp,
  parseCommandLine,
  resolveConfig,
  runFlagsNamed,
  type CommandSpec,
} from '../../config/index.ts';
import { ToolkitError } from '../../core/index.ts';
import type { RunIo } from '../../engine/index.ts';
import { defineCommand } from '../command.ts';

const OUTPUT = [...REPORT_FLAGS, ...runFlagsNamed('sign-key')];

/** `merge-reports`: the shards' folders, and run's own report flags. */
export const MERGE_COMMAND = {
  name: 'merge-reports',
  synopsis: '<shard dir>... [flags]',
  about:
    'Merges the reports folders of CI shards (each written by run --shard i/n, with its run-record.json) into one: ' +
    'the same reports, final table and exit code as one run.',
  positionals: { what: 'the reports folder of each shard' },
  sections: [{ heading: 'Output', flags: OUTPUT }],
} as const satisfies CommandSpec;

const HINT = 'run "payconnect-conformance merge-reports --help" for the usage';

export async function mergeCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const parsed = parseCommandLine(MERGE_COMMAND, argv);
  if (parsed.help) {
    io.stdout(formatCommandHelp(MERGE_COMMAND));
    return 0;
  }
  if (parsed.positionals.length === 0) throw new ToolkitError('PCC_USAGE', 'merge-reports needs the reports folders of the shards', HINT);
  const { mergeReports } = await import('../../engine/index.ts');
  const { formatFinalTable } = await import('../table.ts');
  // The reports folder, the HTML and the signing key as run takes them: flag > env > config file > default.
  const config = await resolveConfig({ argv: argvOf(OUTPUT, parsed.values), env, cwd: process.cwd(), usesTarget: false });
  const result = await mergeReports(
    { dirs: parsed.positionals, outDir: config.reportsDir, html: config.html, ...(config.signKey ? { signKey: config.signKey } : {}) },
    io,
  );
  io.stdout(`merged ${result.summary.shards?.length ?? 0} shards\n`);
  io.stdout(formatFinalTable(result.record, result.summary, result.reports.summary, result.reports));
  return result.exitCode;
}

export default defineCommand({ spec: MERGE_COMMAND, run: mergeCommand });
