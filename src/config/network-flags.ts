/**
 * The transport settings of the network flags (`--ca-file`, `--client-cert`, `--client-key`,
 * `--proxy`; the rows are NETWORK_FLAGS of flags.ts) for a command that does not resolve a whole run
 * configuration (check-receiver): the same environment variables, the same parsing as `run`'s.
 */
import { resolve as resolvePath } from 'node:path';
import type { TransportSettings } from '../transport/transport.ts';
import { invalidValue } from './candidate.ts';
import { envVarOf, flagOf } from './flags.ts';
import * as p from './parsers.ts';
import type { OptionKey } from './types.ts';

const ROWS = [
  { key: 'tls.caFile', setting: 'caFile' },
  { key: 'tls.clientCert', setting: 'clientCert' },
  { key: 'tls.clientKey', setting: 'clientKey' },
  { key: 'proxy', setting: 'proxy' },
] as const satisfies readonly { key: OptionKey; setting: keyof TransportSettings }[];

/**
 * The transport settings from parsed flag values, else the environment (PAYCONNECT_CA_FILE, ...);
 * paths absolute against `cwd`.
 *
 * @throws ToolkitError PCC_USAGE (flag) or PCC_CONFIG_INVALID (environment) for a value that is not one
 */
export function networkSettingsFrom(values: Record<string, unknown>, env: NodeJS.ProcessEnv, cwd: string): TransportSettings {
  const out: TransportSettings = {};
  for (const row of ROWS) {
    const flag = flagOf(row.key);
    const fromFlag = values[flag.name];
    const fromEnv = env[envVarOf(flag)]?.trim() || undefined;
    const value = typeof fromFlag === 'string' ? fromFlag : fromEnv;
    if (value === undefined) continue;
    const candidate =
      typeof fromFlag === 'string'
        ? { value, source: 'flag' as const, where: `flag --${flag.name}` }
        : { value, source: 'env' as const, where: `environment variable ${envVarOf(flag)}` };
    try {
      // The row's own parser, as run's: a URL for the proxy, a path for the rest (made absolute here).
      const parsed = flag.value.parse(value, true) as string;
      out[row.setting] = row.setting === 'proxy' ? parsed : resolvePath(cwd, parsed);
    } catch (error) {
      if (error instanceof p.InvalidValue) throw invalidValue(row.key, candidate, error.reason, error.hint, error);
      throw error;
    }
  }
  return out;
}
