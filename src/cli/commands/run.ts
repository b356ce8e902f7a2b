/**
 * `run`: the conformance suites against a target (the embedded simulator by default), with live
 * progress, the final table, the comparison with an earlier run, and GitHub's annotations and job
 * summary when it runs there.
 */
import { appendFileSync } from 'node:fs';
import { RUN_COMMAND } from '../../config/index.ts';
import type { RunIo } from '../../core/index.ts';
import { defineCommand } from '../command.ts';

async function run(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const { resolveConfig, formatRunHelp } = await import('../../config/index.ts');
  const { LiveProgress } = await import('../../report/index.ts');
  const { runConformance } = await import('../../engine/index.ts');
  const { formatFinalTable } = await import('../table.ts');
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(formatRunHelp());
    return 0;
  }
  const config = await resolveConfig({ argv, env, cwd: process.cwd() });
  io.stdout(
    `payconnect-conformance: target ${config.target.kind === 'url' ? config.target.baseUrl : config.target.kind}, ` +
      `profile ${config.profile}, terminal ${config.terminal}, seed ${config.resume ? 'of the session resumed' : config.seed}\n`,
  );
  // Said before the run, not found out by whoever verifies the package.
  const restricted = [
    ...(config.suites.length > 0 ? [`--suite ${config.suites.join(', ')}`] : []),
    ...(config.grep ? ['--grep'] : []),
    ...(config.shard ? [`shard ${config.shard.index}/${config.shard.count} (sign the merged reports: merge-reports --sign-key)`] : []),
  ];
  if (config.signKey && restricted.length > 0) {
    io.stdout(
      `signing: the package will be PARTIAL (${restricted.join('; ')}): verify-certificate will say VALID, PARTIAL, and it is no evidence of the whole API\n`,
    );
  }
  // A terminal gets a redrawn running line; a log (CI) a line per test and a heartbeat, no control characters.
  // In a manual session at a terminal the operator's console owns the screen (a step's end is its own
  // line there); the final table follows. Without a terminal, progress is one line per test.
  const manualAtTerminal = config.terminal === 'manual' && io.interactive;
  const progress = new LiveProgress({
    write: manualAtTerminal ? () => {} : io.stdout,
    live: config.terminal !== 'manual' && (io.progress ?? io.interactive),
    quiet: config.quiet,
  });
  try {
    const result = await runConformance(config, io, progress);
    progress.stop();
    io.stdout(formatFinalTable(result.record, result.summary, result.reports.summary, result.reports, argv));
    if (result.comparison) io.stdout((await import('../../compare/index.ts')).compareTable(result.comparison));
    const notPassed = result.record.tests.filter((t) => t.state !== 'passed').length;
    if (notPassed > 0 && result.record.tests.some((t) => t.notFinished === 'stopped by the operator')) {
      const again = ['payconnect-conformance', 'run', ...argv.filter((a) => a !== '--resume'), '--resume']
        .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`))
        .join(' ');
      io.stdout(
        `session stopped by the operator: ${result.record.tests.length - notPassed} passed and kept ` +
          `in ${config.reportsDir}/session.json; go on with:\n  ${again}\n`,
      );
    }
    if (env.GITHUB_ACTIONS === 'true') {
      const { githubAnnotations, githubJobSummary } = await import('../../report/index.ts');
      for (const line of githubAnnotations(result.summary)) io.stdout(`${line}\n`);
      try {
        const compared = result.comparison ? `\n${(await import('../../compare/index.ts')).compareSectionMarkdown(result.comparison)}` : '';
        if (env.GITHUB_STEP_SUMMARY)
          appendFileSync(env.GITHUB_STEP_SUMMARY, githubJobSummary(result.summary, result.reports.certification) + compared);
      } catch (e) {
        // The run's verdict stands; the missing job summary is said, not hidden.
        io.stderr(
          `the job summary could not be appended to GITHUB_STEP_SUMMARY (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); ` +
            `the reports hold the same\n`,
        );
      }
    }
    return result.exitCode;
  } finally {
    progress.stop();
  }
}

export default defineCommand({ spec: RUN_COMMAND, run });
