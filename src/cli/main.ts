/**
 * The command line: a thin shell over the programmatic API. It maps a toolkit error to one clear
 * message and exit code 2, and otherwise returns what the command returned.
 */
import { appendFileSync } from 'node:fs';
import { isToolkitError } from '../core/index.ts';
import type { RunIo } from '../engine/index.ts';

// Each command loads its own modules when it runs: Pact's native core, Allure and vitest are heavy,
// and a command that does not use them should not pay for them at every start.

const USAGE = `usage: payconnect-conformance <command> [options]

commands:
  run       run the conformance suites against a target (default: the embedded simulator)
  sim       start the embedded Pay-Connect sandbox on loopback
  pair      pair with a terminal by OTP and save the credentials to the vault
  unpair    unpair a vault pairing and remove it from the vault
  report    regenerate the Allure HTML report of the last run and serve it on 127.0.0.1
  merge-reports  merge the reports of CI shards (run --shard i/n) into one
  compare        what changed between two runs' reports: flipped tests, new findings, shapes, timings (exit 1 on a regression)
  rejudge        judge a run again from its transcript with the installed toolkit (no network)
  verify-certificate  check a signed run's reports: signature, digests, the complete set of tests, the re-judged verdict
  baseline       baseline write: known defects from a run's findings, with a reason and an expiry (run --baseline)
  verify-pacts   verify pact files against a service (provider states through the public API)
  publish-pacts  publish pact files to a Pact Broker
  check-pact     check an integrator's consumer pact against the contract (is every interaction possible?)
  check-receiver judge an integrator's webhook endpoint (signatures, duplicates, bad bodies)
  certify-client judge an integrator's client: runs it against the simulator and judges what it sent

'payconnect-conformance <command> --help' lists the flags of a command.
`;

async function run(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const { resolveConfig, formatRunHelp } = await import('../config/index.ts');
  const { LiveProgress } = await import('../report/index.ts');
  const { runConformance } = await import('../engine/index.ts');
  const { formatFinalTable } = await import('./table.ts');
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(formatRunHelp());
    return 0;
  }
  const config = await resolveConfig({ argv, env, cwd: process.cwd() });
  io.stdout(`payconnect-conformance: target ${config.target.kind === 'url' ? config.target.baseUrl : config.target.kind}, profile ${config.profile}, terminal ${config.terminal}, seed ${config.resume ? 'of the session resumed' : config.seed}\n`);
  // Said before the run, not found out by whoever verifies the package.
  const restricted = [
    ...(config.suites.length > 0 ? [`--suite ${config.suites.join(', ')}`] : []), ...(config.grep ? ['--grep'] : []),
    ...(config.shard ? [`shard ${config.shard.index}/${config.shard.count} (sign the merged reports: merge-reports --sign-key)`] : []),
  ];
  if (config.signKey && restricted.length > 0) {
    io.stdout(`signing: the package will be PARTIAL (${restricted.join('; ')}): verify-certificate will say VALID, PARTIAL, and it is no evidence of the whole API\n`);
  }
  // A terminal gets a redrawn running line; a log (CI) a line per test and a heartbeat, no control characters.
  // In a manual session at a terminal the operator's console owns the screen (a step's end is its own
  // line there); the final table follows. Without a terminal, progress is one line per test.
  const manualAtTerminal = config.terminal === 'manual' && io.interactive;
  const progress = new LiveProgress({ write: manualAtTerminal ? () => {} : io.stdout, live: config.terminal !== 'manual' && (io.progress ?? io.interactive), quiet: config.quiet });
  try {
    const result = await runConformance(config, io, progress);
    progress.stop();
    io.stdout(formatFinalTable(result.record, result.summary, result.reports.summary, result.reports, argv));
    if (result.comparison) io.stdout((await import('../compare/index.ts')).compareTable(result.comparison));
    const notPassed = result.record.tests.filter((t) => t.state !== 'passed').length;
    if (notPassed > 0 && result.record.tests.some((t) => t.notFinished === 'stopped by the operator')) {
      const again = ['payconnect-conformance', 'run', ...argv.filter((a) => a !== '--resume'), '--resume'].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(' ');
      io.stdout(`session stopped by the operator: ${result.record.tests.length - notPassed} passed and kept in ${config.reportsDir}/session.json; go on with:\n  ${again}\n`);
    }
    if (env.GITHUB_ACTIONS === 'true') {
      const { githubAnnotations, githubJobSummary } = await import('../report/index.ts');
      for (const line of githubAnnotations(result.summary)) io.stdout(`${line}\n`);
      try {
        const compared = result.comparison ? `\n${(await import('../compare/index.ts')).compareSectionMarkdown(result.comparison)}` : '';
        if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, githubJobSummary(result.summary, result.reports.certification) + compared);
      } catch (e) {
        // The run's verdict stands; the missing job summary is said, not hidden.
        io.stderr(`the job summary could not be appended to GITHUB_STEP_SUMMARY (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); the reports hold the same\n`);
      }
    }
    return result.exitCode;
  } finally {
    progress.stop();
  }
}

type Command = (argv: string[], env: NodeJS.ProcessEnv, io: RunIo) => Promise<number>;

/** Every command, each loading its modules only when it runs. */
const COMMANDS: Readonly<Record<string, Command>> = {
  run,
  sim: async (argv, _env, io) => (await import('./sim-command.ts')).simCommand(argv, io),
  pair: async (argv, env, io) => (await import('./pair.ts')).pairCommand(argv, env, io),
  unpair: async (argv, env, io) => (await import('./pair.ts')).unpairCommand(argv, env, io),
  report: async (argv, env, io) => (await import('./report-command.ts')).reportCommand(argv, env, io),
  'merge-reports': async (argv, env, io) => (await import('./merge-command.ts')).mergeCommand(argv, env, io),
  compare: async (argv, env, io) => (await import('./compare-command.ts')).compareCommand(argv, env, io),
  rejudge: async (argv, env, io) => (await import('./rejudge-command.ts')).rejudgeCommand(argv, env, io),
  'verify-certificate': async (argv, env, io) => (await import('./verify-certificate.ts')).verifyCertificateCommand(argv, env, io),
  baseline: async (argv, env, io) => (await import('./baseline-command.ts')).baselineCommand(argv, env, io),
  'verify-pacts': async (argv, env, io) => (await import('./pact-commands.ts')).verifyPactsCommand(argv, env, io),
  'publish-pacts': async (argv, env, io) => (await import('./pact-commands.ts')).publishPactsCommand(argv, env, io),
  'check-pact': async (argv, env, io) => (await import('./pact-commands.ts')).checkPactCommand(argv, env, io),
  'check-receiver': async (argv, env, io) => (await import('../receiver-check/index.ts')).checkReceiverCommand(argv, env, io),
  'certify-client': async (argv, env, io) => (await import('../client-check/index.ts')).certifyClientCommand(argv, env, io),
};

/** The name of every command, in the order the usage lists them. */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

/** Runs a command line; returns the exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, io?: RunIo): Promise<number> {
  const out: RunIo = io ?? { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY), progress: Boolean(process.stdout.isTTY) && !env.CI };
  const [command, ...rest] = argv;
  try {
    if (command === undefined || ['help', '--help', '-h'].includes(command)) {
      out.stdout(USAGE);
      return command === undefined ? 2 : 0;
    }
    const handler = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!handler) {
      out.stderr(`PCC_USAGE: unknown command "${command}"\n  fix: use one of ${Object.keys(COMMANDS).join(', ')}\n`);
      return 2;
    }
    return await handler(rest, env, out);
  } catch (e) {
    if (isToolkitError(e)) {
      out.stderr(`${e.toUserMessage()}\n`);
      return 2;
    }
    out.stderr(`PCC_INTERNAL: ${(e as Error)?.stack ?? String(e)}\n  this is a bug of payconnect-conformance: please report it\n`);
    return 2;
  }
}
