/**
 * `check-pact FILE...`: an integrator's consumer pact checked against the contract (is every
 * interaction possible?), with the same reports as a run (check-pact-reports.ts), through the judged
 * commands' shell.
 */
import { resolve } from 'node:path';
import { type RunIo, ToolkitError } from '../../core/index.ts';
import { checkPactFiles, formatCheckPact } from '../../pact/check/index.ts';
import { DEFAULTS, REPORT_FLAGS, formatCommandHelp, parseCommandLine, type CommandSpec } from '../../config/index.ts';
import { prepareReportsDir } from '../../report/index.ts';
import { checkPactJudgement } from '../check-pact-reports.ts';
import { defineCommand } from '../command.ts';
import { judgedErrors, reportsLine, writeJudged } from '../judged.ts';

/** `check-pact`: the pact files, and where the reports go. */
export const CHECK_PACT_COMMAND = {
  name: 'check-pact',
  synopsis: '[flags] <file>...',
  about:
    'Checks consumer pacts (Pact V2, V3 or V4 JSON files) against contracts/pay-connect.openapi.yaml: ' +
    'is every interaction possible for a provider that follows the contract?',
  positionals: { what: 'the pact files' },
  sections: [
    {
      heading: 'Output',
      flags: [
        ...REPORT_FLAGS.map((f) =>
          f.name === 'reports'
            ? {
                ...f,
                description: 'Where the reports go: summary.json, junit.xml, certification.md/.html, Allure; one test per interaction',
                defaultText: DEFAULTS.checkPactReports,
                envText: undefined,
              }
            : { ...f, envText: undefined },
        ),
        { name: 'json', type: 'boolean', description: 'Print the result as JSON' },
      ],
    },
  ],
  notes: `What is checked:
  requests   an operation of the contract (method, path with its trailing slash), the
             X-Pay-Connect-Integrator-Id header and Authorization: Bearer where the operation
             requires them, only documented query parameters, a body the request schema accepts
  responses  a status the operation documents, application/json, a body that status's schema
             accepts, no field the schema does not define (the contract does not promise it)
  messages   (V3 message pacts, V4 asynchronous messages) the webhook payload schemas
             (TransactionEvent, OperationEvent), the Signature metadata's pattern
Matchers: the example values are validated (they are what a provider is sent and answers);
matching rules only loosen the comparison, and a regex rule its own example fails is reported.
Secrets in a pact (Authorization values, client_secret, access_token, ...) are never printed.

Exit code: 0 every interaction is possible, 1 one is not, 2 usage error (a file missing, not
JSON, not a pact). To verify a pact against the simulator: verify-pacts --pact FILE --target sim.`,
} as const satisfies CommandSpec;

/** The help of `check-pact`. */
export const CHECK_PACT_USAGE = formatCommandHelp(CHECK_PACT_COMMAND);

/**
 * `check-pact FILE...`: exit 0 when every interaction of every file is possible under the contract,
 * 1 when one is not, 2 for a usage error (printed here as `PCC_USAGE: ...` and its fix).
 */
export function checkPactCommand(argv: string[], _env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  return judgedErrors(io, async () => {
    const parsed = parseCommandLine(CHECK_PACT_COMMAND, argv);
    if (parsed.help) {
      io.stdout(CHECK_PACT_USAGE);
      return 0;
    }
    const files = parsed.positionals;
    if (files.length === 0)
      throw new ToolkitError(
        'PCC_USAGE',
        'check-pact needs at least one pact file',
        'pass the pact files your consumer tests wrote: check-pact pacts/my-pos-pay-connect.json',
      );
    const startedAt = new Date().toISOString();
    const report = checkPactFiles(files);
    io.stdout(parsed.values.json ? `${JSON.stringify(report, null, 2)}\n` : formatCheckPact(report));
    const reportsDir = resolve(parsed.values.reports ?? DEFAULTS.checkPactReports);
    await prepareReportsDir(reportsDir);
    const written = await writeJudged(io, { reportsDir, html: parsed.values.html ?? DEFAULTS.html }, checkPactJudgement(report, startedAt));
    if (!parsed.values.json) io.stdout(reportsLine(written));
    return report.ok ? (written.exitCode === 2 ? 2 : 0) : 1;
  });
}

export default defineCommand({ spec: CHECK_PACT_COMMAND, run: checkPactCommand });
