/**
 * `merge-reports DIR...`: the shards' reports folders merged into one (see engine/merge-reports.ts),
 * with the same final table and exit code as a run: 0 pass, 1 a failure of the service, 2 a usage
 * error or a bug of ours (a shard missing or given twice, shards of different runs).
 */
import { parseArgs } from 'node:util';
import { ToolkitError } from '../core/index.ts';
import type { RunIo } from '../engine/index.ts';

const MERGE_USAGE = `usage: payconnect-conformance merge-reports <shard dir>... [--reports <dir>] [--no-html] [--sign-key <file>]

  <shard dir>         the reports folder of each shard (run --shard i/n writes run-record.json there)
  --reports <dir>     where the merged reports go (default: reports)
  --no-html           skip the Allure HTML report
  --sign-key <file>   sign the merged reports (Ed25519 PEM; also PAYCONNECT_SIGNING_KEY_FILE or
                      PAYCONNECT_SIGN_KEY, passphrase from PAYCONNECT_SIGNING_KEY_PASSPHRASE):
                      certificate.intoto.json, checked by verify-certificate
`;

export async function mergeCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { reports: { type: 'string' }, 'no-html': { type: 'boolean' }, 'sign-key': { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (e) {
    throw new ToolkitError('PCC_USAGE', (e as Error).message, `see:\n${MERGE_USAGE}`);
  }
  if (parsed.values.help) {
    io.stdout(MERGE_USAGE);
    return 0;
  }
  if (parsed.positionals.length === 0) throw new ToolkitError('PCC_USAGE', 'merge-reports needs the reports folders of the shards', `see:\n${MERGE_USAGE}`);
  const { mergeReports } = await import('../engine/index.ts');
  const { formatFinalTable } = await import('./table.ts');
  const signKey = parsed.values['sign-key'] ?? (env.PAYCONNECT_SIGNING_KEY_FILE || env.PAYCONNECT_SIGN_KEY || undefined);
  const result = await mergeReports({ dirs: parsed.positionals, outDir: parsed.values.reports ?? 'reports', html: !parsed.values['no-html'], ...(signKey ? { signKey } : {}) }, io);
  io.stdout(`merged ${result.summary.shards?.length ?? 0} shards\n`);
  io.stdout(formatFinalTable(result.record, result.summary, result.reports.summary, result.reports));
  return result.exitCode;
}
