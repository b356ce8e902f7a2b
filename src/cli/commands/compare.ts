/**
 * `compare BASE CANDIDATE`: what changed between two runs' reports folders (src/compare): the console
 * table, compare.json and compare.html. Exit 1 when anything regressed (a flip to fail, a new finding,
 * a timing regression; with `--fail-on changed` also a shape change), 0 otherwise, 2 for bad input.
 */
import { type CommandSpec, formatCommandHelp, parseCommandLine } from '../../config/index.ts';
import { ToolkitError } from '../../core/index.ts';
import type { RunIo } from '../../engine/index.ts';
import { defineCommand } from '../command.ts';

/** Where compare writes when `--reports` is not given. */
export const COMPARE_DEFAULT_DIR = 'reports-compare';

export const COMPARE_COMMAND = {
  name: 'compare',
  synopsis: '<base reports dir> <candidate reports dir> [flags]',
  about:
    'Compares two runs (a run, merged shards or a manual session: their reports folders, summary.json and transcript.jsonl.gz): ' +
    'tests whose outcome flipped with the finding that explains each, findings new, gone and persisting, response shapes (fields, ' +
    'enum values, status codes, webhook events) that appeared or disappeared, and timings that changed both much and significantly.',
  positionals: { what: "the base run's reports folder, then the candidate's" },
  sections: [
    {
      heading: 'Output',
      flags: [
        {
          name: 'reports',
          type: 'string',
          placeholder: '<dir>',
          description: 'Where compare.json and compare.html are written',
          defaultText: COMPARE_DEFAULT_DIR,
        },
        {
          name: 'fail-on',
          type: 'string',
          placeholder: 'regressed|changed',
          description: 'Exit 1 on a regression only, or also on a shape change',
          defaultText: 'regressed',
        },
      ],
    },
  ],
  notes:
    'Exit codes: 0 nothing regressed; 1 something regressed (a test flipped to fail, a new finding,\n' +
    'a timing regression; with --fail-on changed also a shape that appeared or disappeared);\n' +
    "2 bad input (a folder missing or not a run's reports).\n",
} as const satisfies CommandSpec;

const HINT = 'run "payconnect-conformance compare --help" for the usage';

export async function compareCommand(argv: string[], _env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const parsed = parseCommandLine(COMPARE_COMMAND, argv);
  if (parsed.help) {
    io.stdout(formatCommandHelp(COMPARE_COMMAND));
    return 0;
  }
  if (parsed.positionals.length !== 2)
    throw new ToolkitError('PCC_USAGE', `compare needs two reports folders, BASE and CANDIDATE (got ${parsed.positionals.length})`, HINT);
  const failOn = (parsed.values['fail-on'] as string | undefined) ?? 'regressed';
  if (failOn !== 'regressed' && failOn !== 'changed')
    throw new ToolkitError(
      'PCC_USAGE',
      `--fail-on ${failOn} is not regressed or changed`,
      'use --fail-on regressed (the default) or --fail-on changed',
    );
  const [base, candidate] = parsed.positionals as [string, string];
  const { compareFolders, compareTable, compareExitCode } = await import('../../compare/index.ts');
  const { comparisonCharts } = await import('../../report/timing-charts.ts');
  const out = (parsed.values.reports as string | undefined) ?? COMPARE_DEFAULT_DIR;
  const r = await compareFolders(base, candidate, out, async (c, b, n) => comparisonCharts(b.summary.timing, n.summary.timing, c));
  io.stdout(compareTable(r.comparison));
  io.stdout(`compare: ${r.json} (.html beside it)\n`);
  return compareExitCode(r.comparison, failOn);
}

export default defineCommand({ spec: COMPARE_COMMAND, run: compareCommand });
