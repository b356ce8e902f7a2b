/**
 * `certify-client`: judges an integrator's client against the rules of rules.ts.
 *
 * - `certify-client [options] -- <command ...>` starts the embedded simulator (recording on, one
 *   forged webhook per receiver), runs the command with PAYCONNECT_BASE_URL, PAYCONNECT_INTEGRATOR_ID
 *   and a fresh PAYCONNECT_OTP, kills it after --timeout, and judges what it did. With `--tls` the
 *   simulator serves HTTPS on a throw-away CA and the command also gets PAYCONNECT_CA_FILE: trusting
 *   it is the client's own business (nothing like NODE_EXTRA_CA_CERTS is set for it).
 * - `certify-client [options] --recording FILE` judges a client run by hand against `sim --record FILE`.
 *
 * The client needs nothing else: its credentials and webhook key come from pairing, and its webhook
 * endpoint is whatever webhook_url it gives there. Reports are those of `run` (summary.json,
 * junit.xml, certification, Allure); exit 0 certified, 1 not, 2 usage or toolkit error.
 */
import { validateDisableCheck } from '../../checks/disable-check.ts';
import { type RunIo, ToolkitError } from '../../core/index.ts';
import {
  DEFAULTS,
  REPORT_FLAGS,
  duration,
  durationWithin,
  flagValue,
  formatCommandHelp,
  formatDuration,
  integer,
  parseCommandLine,
  runFlagsNamed,
  type CommandSpec,
} from '../../config/index.ts';
import { SIMULATOR_DEFAULTS } from '../../simulator/index.ts';
import { CLIENT_PROFILE_DEFAULTS } from '../../client-check/client-run.ts';
import { type CertifyClientHooks, type CertifyClientOptions, certifyClient } from '../../client-check/certify.ts';
import { CLIENT_CAPABILITY } from '../../client-check/judge.ts';
import { judgedErrors, writeJudged } from '../judged.ts';
import { defineCommand } from '../command.ts';

export type { CertifyClientHooks, CertifyClientOptions } from '../../client-check/certify.ts';

/** The integrator id given to the client unless --integrator-id says otherwise. */
export const DEFAULT_CLIENT_INTEGRATOR_ID = DEFAULTS.certifyClient.integratorId;

const ms = (n: number) => formatDuration(n);

/** `certify-client`: a recording or a command after `--`, run's report flags, the simulator's settings. */
export const CERTIFY_CLIENT_COMMAND = {
  name: 'certify-client',
  synopsis: '[flags] -- <command> [args...]  |  [flags] --recording <file>',
  about:
    'Runs <command> against the embedded simulator and judges how it uses Pay-Connect; or judges a ' +
    "recording that 'sim --record FILE' made while a client was run by hand. The command gets " +
    'PAYCONNECT_BASE_URL, PAYCONNECT_INTEGRATOR_ID and a fresh PAYCONNECT_OTP in its environment; its ' +
    'credentials and webhook key come from pairing, its webhook endpoint is the webhook_url it gives there.\n\n' +
    'With --tls the simulator serves HTTPS (PAYCONNECT_BASE_URL=https://localhost:PORT) with a certificate ' +
    "of a throw-away CA, and the command also gets PAYCONNECT_CA_FILE, that CA's certificate (PEM): the " +
    "client must trust it to connect, as it would trust its staging service's CA. The Node way: read the " +
    "file into the 'ca' of its HTTP agent, beside tls.rootCertificates, or start Node with " +
    'NODE_EXTRA_CA_CERTS=$PAYCONNECT_CA_FILE. certify-client sets neither: how the client handles TLS is ' +
    'part of what is tested, and a client that does not connect is not certified.',
  dashDash: true,
  // Accepted only to say where a command goes (after --).
  positionals: { what: 'none: the command goes after --' },
  sections: [
    {
      heading: 'Client',
      flags: [
        { name: 'recording', type: 'string', placeholder: '<file>', description: 'Judge this recording instead of running a command' },
        {
          name: 'timeout',
          type: 'string',
          placeholder: '<duration>',
          description: 'The command is killed after this long, e.g. 30s, 2m',
          defaultText: ms(DEFAULTS.certifyClient.timeoutMs),
        },
        {
          name: 'integrator-id',
          type: 'string',
          placeholder: '<id>',
          description: 'The integrator id given to the command',
          defaultText: DEFAULTS.certifyClient.integratorId,
        },
        {
          name: 'tls',
          type: 'boolean',
          description: 'The simulator serves HTTPS; the command gets PAYCONNECT_CA_FILE to trust (see above)',
        },
      ],
    },
    {
      heading: 'Output',
      flags: [
        { ...runFlagsNamed('strict')[0]!, description: 'Profile and sandbox rules fail instead of warning', envText: undefined },
        {
          ...runFlagsNamed('disable-check')[0]!,
          placeholder: '<rule id>',
          description:
            'A rule not to judge (its id as the reports show it; docs/rules.md lists them); repeat for several. The certificate lists it and is not issued',
          envText: undefined,
        },
        ...REPORT_FLAGS.map((f) => ({ ...f, envText: undefined })),
      ],
    },
    {
      heading: 'Simulator and profile',
      flags: [
        {
          name: 'token-lifetime',
          type: 'string',
          placeholder: '<seconds>',
          description: "The simulator's token lifetime, to see renewal on 401",
          defaultText: String(SIMULATOR_DEFAULTS.tokenLifetimeSec),
        },
        {
          name: 'step-delay',
          type: 'string',
          placeholder: '<duration>',
          description: "The virtual terminal's step delay, 0 to 1s",
          defaultText: ms(SIMULATOR_DEFAULTS.stepDelayMs),
        },
        { name: 'seed', type: 'string', placeholder: '<n>', description: "The simulator's seed", defaultText: 'random' },
        {
          name: 'min-poll-interval',
          type: 'string',
          placeholder: '<duration>',
          description: 'Polls of one transaction at least this far apart',
          defaultText: ms(CLIENT_PROFILE_DEFAULTS.minPollIntervalMs),
        },
        {
          name: 'busy-retry-min',
          type: 'string',
          placeholder: '<duration>',
          description: 'After a 409, the same request waits at least this long',
          defaultText: ms(CLIENT_PROFILE_DEFAULTS.busyRetryMinMs),
        },
      ],
    },
  ],
  notes: 'exit: 0 certified (warnings allowed), 1 not certified, 2 usage or toolkit error',
} as const satisfies CommandSpec;

/** The usage text of certify-client (printed with a newline after it). */
export const CERTIFY_CLIENT_USAGE = formatCommandHelp(CERTIFY_CLIENT_COMMAND).replace(/\n$/, '');

const usage = (what: string, fix: string) => new ToolkitError('PCC_USAGE', what, fix);

/**
 * Parses the command line.
 * @throws ToolkitError PCC_USAGE
 */
export function parseCertifyClientArgs(argv: string[]): CertifyClientOptions | 'help' {
  const { values, positionals, help, rest: command } = parseCommandLine(CERTIFY_CLIENT_COMMAND, argv);
  if (help) return 'help';
  if (positionals.length > 0)
    throw usage(`unexpected argument ${positionals[0]}`, 'put the command after --: certify-client [options] -- <command> [args...]');
  const str = (k: keyof typeof values) => values[k] as string | undefined;
  const recording = str('recording') ?? null;
  if (recording !== null && command !== null)
    throw usage('both --recording and a command after -- are given', 'either judge a recording or run a command, not both');
  if (recording === null && (command === null || command.length === 0)) {
    throw usage(
      command === null ? 'no command to certify' : 'no command after --',
      'certify-client [options] -- <command> [args...], or certify-client --recording FILE',
    );
  }
  if (recording !== null && recording.trim() === '') throw usage('--recording is empty', 'give the file that sim --record FILE wrote');
  if (recording !== null && values.tls === true) {
    throw usage(
      '--tls is given with --recording',
      'drop --tls: a recording is judged as it was made (record a TLS client with sim --tls --record FILE)',
    );
  }
  const integratorId = str('integrator-id') ?? DEFAULTS.certifyClient.integratorId;
  if (integratorId.trim() === '') throw usage('--integrator-id is empty', 'give an integrator id, e.g. --integrator-id acme');
  const reportsDir = str('reports') ?? DEFAULTS.reports;
  if (reportsDir.trim() === '') throw usage('--reports is empty', 'give a folder, e.g. --reports reports');
  const stepDelayMs = flagValue('step-delay', str('step-delay'), durationWithin(0, 1000));
  const within = (flag: 'min-poll-interval' | 'busy-retry-min') => flagValue(flag, str(flag), durationWithin(0, 3_600_000));
  return {
    command,
    recording,
    reportsDir,
    timeoutMs: flagValue('timeout', str('timeout'), duration(1)) ?? DEFAULTS.certifyClient.timeoutMs,
    strict: values.strict === true,
    disabled: validateDisableCheck((values['disable-check'] as string[] | undefined) ?? [], 'certify-client', { where: '--disable-check' }),
    html: values.html ?? DEFAULTS.html,
    integratorId,
    tokenLifetimeSec: flagValue(
      'token-lifetime',
      str('token-lifetime'),
      integer(1, 86_400 * 365, 'give a whole number of seconds from 1 to 31536000'),
    ),
    stepDelayMs,
    seed: flagValue('seed', str('seed'), integer(0, 2 ** 32 - 1, 'give a whole number from 0 to 4294967295')),
    tls: values.tls === true,
    settings: {
      ...CLIENT_PROFILE_DEFAULTS,
      minPollIntervalMs: within('min-poll-interval') ?? CLIENT_PROFILE_DEFAULTS.minPollIntervalMs,
      busyRetryMinMs: within('busy-retry-min') ?? CLIENT_PROFILE_DEFAULTS.busyRetryMinMs,
    },
  };
}

/**
 * The certify-client command.
 * @returns 0 certified, 1 not certified, 2 usage or toolkit error
 */
export function certifyClientCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo, hooks: CertifyClientHooks = {}): Promise<number> {
  return judgedErrors(io, async () => {
    const o = parseCertifyClientArgs(argv);
    if (o === 'help') {
      io.stdout(`${CERTIFY_CLIENT_USAGE}\n`);
      return 0;
    }
    const c = await certifyClient(o, env, io, hooks);
    const result = await writeJudged(
      io,
      { reportsDir: o.reportsDir, html: o.html },
      {
        record: c.record,
        facts: c.facts,
        certification: { subject: `Pay-Connect client: ${c.subject}`, required: [CLIENT_CAPABILITY] },
        transcript: { tx: c.transcript, options: c.options, disabledChecks: o.disabled },
      },
    );
    const lines = c.record.tests.map((t) => {
      const mark = t.state === 'passed' ? (t.findings.length > 0 ? '!' : '✓') : t.state === 'failed' ? '✗' : '-';
      const detail =
        t.state === 'skipped'
          ? `: skipped, ${t.skipReason}`
          : [
              ...t.findings.map((f) => `\n    ${f.severity}: [${f.check}] (${f.clause}) ${f.message}`),
              ...t.errors.map((e) => `\n    ${e}`),
            ].join('');
      return `${mark} ${t.name}${detail}`;
    });
    const certified = result.reports.certification?.certified ?? result.exitCode === 0;
    const handshakes = c.tlsLines.length;
    const endedInHandshake = handshakes > 0 ? `; ${handshakes} connection${handshakes === 1 ? '' : 's'} ended in the TLS handshake` : '';
    io.stdout(
      [
        `${c.run.requests.length} requests and ${c.run.deliveries.length} webhook deliveries recorded${endedInHandshake}`,
        ...lines,
        `${certified ? 'CERTIFIED' : 'NOT CERTIFIED'}: reports in ${o.reportsDir} (summary.json, junit.xml, certification.md)`,
      ].join('\n') + '\n',
    );
    return result.exitCode === 0 && !certified ? 1 : result.exitCode;
  });
}

export default defineCommand({ spec: CERTIFY_CLIENT_COMMAND, run: (argv, env, io) => certifyClientCommand(argv, env, io) });
