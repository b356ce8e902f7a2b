/**
 * `check-receiver --url URL`: judges an integrator's webhook endpoint (the system under test) by
 * sending it deliveries exactly as sandbox.md describes them, genuine and forged, and writes the same
 * reports as a run. Exit 0: every rule passed (warnings allowed); 1: a failure finding (an
 * unreachable receiver is one, and so is one too slow to be judged); 2: a usage error or an error of
 * the toolkit.
 */
import { readFileSync } from 'node:fs';
import { validateDisableCheck } from '../../checks/disable-check.ts';
import { type RunIo, ToolkitError } from '../../core/index.ts';
import {
  DEFAULTS,
  NETWORK_FLAGS,
  REPORT_FLAGS,
  durationWithin,
  flagValue,
  formatCommandHelp,
  formatDuration,
  networkSettingsFrom,
  parseCommandLine,
  runFlagsNamed,
  spellingsOf,
  type CommandSpec,
} from '../../config/index.ts';
import { loadTransport, type Transport } from '../../transport/index.ts';
import { type TestRecord, findingLine, prepareReportsDir, toolInfo } from '../../report/index.ts';
import { CommandTranscript } from '../../transcript/command-transcript.ts';
import { judgedErrors, reportsLine, writeJudged } from '../judged.ts';
import { RECEIVER_CAPABILITY, TIMEOUTS_IN_A_ROW, checkReceiver } from '../../receiver-check/check-receiver.ts';
import { ANSWERED_IN_TIME, RECEIVER_RULES, RULE_IDS } from '../../receiver-check/rules.ts';
import { defineCommand } from '../command.ts';

/** The environment variable that holds the webhook secret key. */
export const SECRET_ENV = 'PAYCONNECT_WEBHOOK_SECRET';

/** Defaults of the command's flags (config/defaults.ts). */
export const CHECK_RECEIVER_DEFAULTS = DEFAULTS.checkReceiver;

/**
 * The --timeout the command takes: below 100 ms a loopback answer is late by scheduling alone; above
 * 2 m a receiver given up as too slow costs {@link TIMEOUTS_IN_A_ROW} waits of up to `capFor(2 m)`
 * (4 m) each; and a timer must stay within 2^31 ms.
 */
export const TIMEOUT_BOUNDS = { minMs: 100, maxMs: 120_000 } as const;

const ruleLines = [...RECEIVER_RULES, ANSWERED_IN_TIME]
  .map((r) => `  ${r.id.padEnd(34)} ${r.source === 'spec' ? 'failure' : 'warning'}  ${r.clause}`)
  .join('\n');

/** `check-receiver`: the endpoint, the secret's file, the timeout, run's report flags and TLS flags. */
export const CHECK_RECEIVER_COMMAND = {
  name: 'check-receiver',
  synopsis: '--url <url> [flags]',
  about:
    'Judges your webhook endpoint: sends it Pay-Connect deliveries as sandbox.md describes them (POST, ' +
    'Content-Type: application/json, body {"data","event","event_id"} with sorted keys, header Signature = ' +
    'lowercase hex HMAC-SHA256 of the exact body bytes keyed with your webhook_secret_key), genuine and ' +
    'forged, and checks each answer. The deliveries name transactions your system never started (ids ' +
    'pcc-check-...): answer them 2xx and ignore them, as you would any event you cannot use.\n\n' +
    `The secret key: environment variable ${SECRET_ENV}, or --secret-file (never a flag value; never ` +
    'printed or written to a report).',
  // Accepted only to be refused without echoing them (a stray argument may be the secret).
  positionals: { what: 'none' },
  sections: [
    {
      heading: 'Receiver',
      flags: [
        { name: 'url', type: 'string', placeholder: '<url>', description: 'The endpoint to judge (http or https; required)' },
        {
          name: 'secret-file',
          type: 'string',
          placeholder: '<file>',
          description: 'A file holding the webhook secret key (one trailing newline is ignored)',
        },
        {
          name: 'timeout',
          type: 'string',
          placeholder: '<duration>',
          defaultText:
            `${formatDuration(DEFAULTS.checkReceiver.timeoutMs)}; ${formatDuration(TIMEOUT_BOUNDS.minMs)} ` +
            `to ${formatDuration(TIMEOUT_BOUNDS.maxMs)}`,
          description:
            `An answer later than this is a warning; ${TIMEOUTS_IN_A_ROW} deliveries in a row not answered ` +
            `within it: the receiver is given up as too slow (a failure; the rules left are not checked)`,
        },
      ],
    },
    {
      heading: 'Output',
      flags: [
        { ...runFlagsNamed('strict')[0]!, description: 'Profile rules (warnings) fail too', envText: undefined },
        {
          ...runFlagsNamed('disable-check')[0]!,
          placeholder: '<rule id>',
          description:
            'A rule not to judge (its id as the reports show it; docs/rules.md lists them); repeat for several. The certificate lists it and is not issued',
          envText: undefined,
        },
        ...REPORT_FLAGS.map((f) =>
          f.name === 'reports' ? { ...f, defaultText: DEFAULTS.checkReceiver.reports, envText: undefined } : { ...f, envText: undefined },
        ),
      ],
    },
    { heading: 'TLS towards an https receiver', flags: NETWORK_FLAGS.filter((f) => f.name !== 'proxy') },
  ],
  notes: `rules (severity without --strict, clause):
${ruleLines}

exit: 0 every rule passed (warnings allowed), 1 a failure (an unreachable or too slow receiver is
one; the rules it kept from being checked are not checked, never passed), 2 usage or toolkit error.
reports: summary.json, junit.xml, certification.md/.html, allure-results/, allure-report/index.html`,
} as const satisfies CommandSpec;

/** The help of check-receiver. */
export const CHECK_RECEIVER_USAGE = formatCommandHelp(CHECK_RECEIVER_COMMAND);

const usage = (message: string, fix: string) => new ToolkitError('PCC_USAGE', message, fix);

/** Parsed flags (the secret read, never shown). */
interface CheckReceiverArgs {
  url: URL;
  secret: string;
  timeoutMs: number;
  strict: boolean;
  /** Rules not judged (--disable-check), by their current ids. */
  disabled: string[];
  reports: string;
  html: boolean;
  /** TLS towards an https receiver. */
  transport: Transport;
}

/** The URL as the reports show it: no user or password, every query value redacted (a token may live there). */
export function shownUrl(url: URL): string {
  const u = new URL(url.href);
  if (u.username || u.password) {
    u.username = '[REDACTED]';
    u.password = '';
  }
  for (const key of [...new Set(u.searchParams.keys())]) u.searchParams.set(key, '[REDACTED]');
  return u.href.replace(/%5BREDACTED%5D/g, '[REDACTED]');
}

function readSecretFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw usage(
      `--secret-file ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      'give a readable file that holds the webhook secret key',
    );
  }
  const secret = text.replace(/\r?\n$/, '');
  if (secret === '') throw usage(`--secret-file ${path} is empty`, 'put the webhook_secret_key of the pairing in it');
  return secret;
}

/**
 * Reads the flags and the secret. Never echoes a value that could be the secret (an unknown flag is
 * named without its value).
 *
 * @throws ToolkitError PCC_USAGE
 */
export function parseCheckReceiverArgs(argv: string[], env: NodeJS.ProcessEnv): CheckReceiverArgs | 'help' {
  const fix = "see 'payconnect-conformance check-receiver --help'";
  // A flag that looks like the secret is refused as such, and named without its value.
  const known = spellingsOf(CHECK_RECEIVER_COMMAND);
  const secretLike = argv
    .map((a) => a.split('=')[0]!)
    .find((name) => !known.includes(name) && /^--?secret$|^--(webhook-)?(secret|key)/.test(name));
  if (secretLike)
    throw usage(`unknown option ${secretLike}: the secret is never given as a flag value`, `set ${SECRET_ENV} or use --secret-file <file>`);
  const parsed = parseCommandLine(CHECK_RECEIVER_COMMAND, argv);
  const v = parsed.values;
  if (parsed.help) return 'help';
  if (parsed.positionals.length > 0)
    throw usage(`unexpected argument (${parsed.positionals.length} given; the command takes flags only)`, fix);
  if (v.url === undefined)
    throw usage('--url is required', 'give the webhook endpoint to judge: --url https://example.test/webhooks/pay-connect');
  let url: URL;
  try {
    url = new URL(v.url);
  } catch {
    throw usage('--url is not a URL', 'give an absolute http or https URL, e.g. --url http://127.0.0.1:8080/webhooks');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw usage(`--url must be http or https, not ${url.protocol.replace(/:$/, '')}`, 'give an absolute http or https URL');
  const fromEnv = env[SECRET_ENV];
  const file = v['secret-file'];
  if (fromEnv !== undefined && fromEnv !== '' && file !== undefined)
    throw usage(`both ${SECRET_ENV} and --secret-file give the secret`, 'give it one way only');
  let secret: string;
  if (file !== undefined) secret = readSecretFile(file);
  else if (fromEnv !== undefined && fromEnv !== '') secret = fromEnv;
  else throw usage('no webhook secret key given', `set ${SECRET_ENV} or use --secret-file <file> (the webhook_secret_key of the pairing)`);
  const timeoutMs =
    flagValue('timeout', v.timeout, durationWithin(TIMEOUT_BOUNDS.minMs, TIMEOUT_BOUNDS.maxMs)) ?? DEFAULTS.checkReceiver.timeoutMs;
  const { proxy: _proxy, ...tls } = networkSettingsFrom(v, env, process.cwd());
  const disabled = validateDisableCheck(v['disable-check'] ?? [], 'check-receiver', { where: '--disable-check' });
  return {
    url,
    secret,
    timeoutMs,
    strict: v.strict ?? false,
    disabled,
    reports: v.reports ?? CHECK_RECEIVER_DEFAULTS.reports,
    html: v.html ?? DEFAULTS.html,
    transport: loadTransport(tls, env),
  };
}

/** One line per rule as it ends. */
function ruleLine(t: TestRecord): string {
  const id = t.parameters.rule ?? '';
  if (t.state === 'skipped') {
    // The root cause was told once already: here only what this rule did not get.
    const why = /: (not checked, .*)$/.exec(t.skipReason ?? '')?.[1] ?? `not checked (${t.skipReason ?? 'skipped'})`;
    const blocked = t.blockedBy ? ` (blocked by [${t.blockedBy.check}])` : '';
    const findings = t.findings.map((f) => `    ${f.severity === 'failure' ? 'FAIL' : 'WARN'} ${findingLine(f)}\n`).join('');
    return `- ${id}: ${why}${blocked}\n${findings}`;
  }
  const mark = t.findings.some((f) => f.severity === 'failure') ? '✗' : t.findings.length > 0 ? '!' : '✓';
  const head = `${mark} ${id}: ${t.name.slice(`${RECEIVER_CAPABILITY} > `.length)}\n`;
  return head + t.findings.map((f) => `    ${f.severity === 'failure' ? 'FAIL' : 'WARN'} ${findingLine(f)}\n`).join('');
}

/**
 * The command: `check-receiver --url URL [--secret-file F] [--timeout 10s] [--strict] [--reports DIR] [--no-html]`.
 * A usage error is one line (`PCC_USAGE: ...` and its fix) on stderr and exit 2.
 */
export function checkReceiverCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  return judgedErrors(io, async () => {
    const args = parseCheckReceiverArgs(argv, env);
    if (args === 'help') {
      io.stdout(CHECK_RECEIVER_USAGE);
      return 0;
    }
    await prepareReportsDir(args.reports);
    const tool = toolInfo();
    const shown = shownUrl(args.url);
    const startedAt = new Date().toISOString();
    io.stdout(
      `check-receiver: ${shown}, timeout ${formatDuration(args.timeoutMs)}${args.strict ? ', strict' : ''}, ` +
        `${RECEIVER_RULES.length + 1} rules${args.disabled.length > 0 ? ` (${args.disabled.join(', ')} disabled)` : ''}\n`,
    );
    const userAgent = `${tool.name}/${tool.version} (check-receiver)`;
    // Never the key: replaced wherever it would occur (an answer that echoes it).
    const tx = new CommandTranscript('check-receiver', [args.secret]);
    const record = await checkReceiver({
      url: args.url,
      shownUrl: shown,
      secret: args.secret,
      timeoutMs: args.timeoutMs,
      strict: args.strict,
      disabled: args.disabled,
      transport: args.transport,
      transcript: tx,
      userAgent,
      onRule: (t) => io.stdout(ruleLine(t)),
      onGiveUp: (line) => io.stderr(`${line}\n`),
    });
    const result = await writeJudged(
      io,
      { reportsDir: args.reports, html: args.html },
      {
        record,
        facts: {
          tool,
          target: { kind: 'receiver', baseUrl: shown },
          profile: 'public',
          terminalMode: 'none',
          seed: 0,
          strict: args.strict,
          integratorId: '',
          ...(args.disabled.length > 0 ? { checksDisabled: args.disabled } : {}),
          labels: {},
          startedAt,
        },
        certification: { subject: `webhook receiver ${shown}`, required: [RECEIVER_CAPABILITY] },
        transcript: {
          tx,
          disabledChecks: args.disabled,
          options: {
            url: shown,
            timeoutMs: args.timeoutMs,
            rules: RULE_IDS,
            userAgent,
            tls: args.transport.tls.secureContext !== undefined,
          },
        },
      },
    );
    const c = result.summary.counts;
    io.stdout(
      `${result.summary.verdict === 'pass' ? 'PASS' : 'FAIL'}: ${c.passed} passed, ${c.failed} failed, ` +
        `${c.skipped} not checked; ${c.failures} failure${c.failures === 1 ? '' : 's'}, ${c.warnings} ` +
        `warning${c.warnings === 1 ? '' : 's'}; ${result.reports.certification.certified ? 'CERTIFIED' : 'NOT CERTIFIED'}\n`,
    );
    io.stdout(reportsLine(result));
    return result.exitCode;
  });
}

export default defineCommand({ spec: CHECK_RECEIVER_COMMAND, run: checkReceiverCommand });
