/**
 * Replaying a counterexample: `PAYCONNECT_STATEFUL_REPLAY=<path>` (fast-check's counterexample path)
 * and `PAYCONNECT_STATEFUL_REPLAY_COMMANDS=<replayPath>` (which commands of the shrunk sequence ran),
 * with the run's `--seed`, make fc.check run exactly the reported sequence again.
 */
import type { RunContext } from '../../src/index.ts';

export const REPLAY_ENV = 'PAYCONNECT_STATEFUL_REPLAY';
export const REPLAY_COMMANDS_ENV = 'PAYCONNECT_STATEFUL_REPLAY_COMMANDS';

export interface Replay {
  path: string;
  replayPath?: string;
}

/** The replay asked for in the environment, if any. */
export function replayFromEnv(env: NodeJS.ProcessEnv): Replay | undefined {
  const path = env[REPLAY_ENV]?.trim();
  if (!path) return undefined;
  const replayPath = env[REPLAY_COMMANDS_ENV]?.trim();
  return { path, ...(replayPath ? { replayPath } : {}) };
}

/** fast-check's replayPath, from the `/*replayPath="..."*\/` comment of a commands' toString. */
export function replayPathIn(sequence: string): string | undefined {
  return /replayPath="([^"]*)"/.exec(sequence)?.[1];
}

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The one-line command that replays the counterexample. */
export function replayCommand(ctx: RunContext, seed: number, path: string, replayPath: string | undefined, grep?: string): string {
  // The run's own options that shaped it (target, --sim-fault, --strict, ...): --runs is the replay's own.
  const flags = ctx.rerunOptions
    ? withoutRuns(ctx.rerunOptions)
    : [
        ...(ctx.targetKind === 'url' ? ['--target', ctx.baseUrl] : []),
        ...(ctx.strict ? ['--strict'] : []),
        "<this run's --sim-fault options>",
      ];
  const env = [`${REPLAY_ENV}=${quote(path)}`, ...(replayPath ? [`${REPLAY_COMMANDS_ENV}=${quote(replayPath)}`] : [])];
  return [
    ...env,
    'npx payconnect-conformance run --suite stateful',
    ...(grep ? ['--grep', quote(grep)] : []),
    '--seed',
    String(seed),
    '--runs',
    String(ctx.runs),
    ...flags.map((f) => (f.startsWith('<') ? f : quote(f))),
  ].join(' ');
}

/** `options` without --runs and its value (either form). */
function withoutRuns(options: readonly string[]): string[] {
  return options.filter((o, i) => !(o === '--runs' || o.startsWith('--runs=') || options[i - 1] === '--runs'));
}
