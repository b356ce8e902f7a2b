/**
 * Replaying a counterexample: `PAYCONNECT_STATEFUL_REPLAY=<path>` (fast-check's counterexample path)
 * and `PAYCONNECT_STATEFUL_REPLAY_COMMANDS=<replayPath>` (which commands of the shrunk sequence ran),
 * with the run's `--seed`, make fc.check run exactly the reported sequence again.
 */
import { readFileSync } from 'node:fs';
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

/** Flags of the run that decide the target and the simulator (their values follow them). */
const VALUE_FLAGS = new Set(['--target', '--sim-fault', '--sim-step-delay', '--sim-deadline', '--profile', '--terminal', '--deadline', '--integrator-id', '--config']);
const BOOLEAN_FLAGS = new Set(['--strict']);

/**
 * The target and simulator flags of the command line that started this run. The run context does
 * not carry the simulator's faults, so they are read from the parent process (the CLI; vitest runs
 * the suites in a child of it) where the platform shows it (Linux /proc); undefined elsewhere.
 */
function parentRunFlags(): string[] | undefined {
  try {
    const argv = readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
    const at = argv.indexOf('run');
    if (at < 0) return undefined;
    const out: string[] = [];
    const args = argv.slice(at + 1);
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      const [name, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (BOOLEAN_FLAGS.has(name)) out.push(name);
      else if (VALUE_FLAGS.has(name)) {
        const value = inline ?? args[++i];
        if (value !== undefined) out.push(name, value);
      }
    }
    return out;
  } catch {
    return undefined;
  }
}

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The one-line command that replays the counterexample. */
export function replayCommand(ctx: RunContext, seed: number, path: string, replayPath: string | undefined, grep?: string): string {
  let flags = parentRunFlags();
  if (flags === undefined) {
    flags = [];
    if (ctx.targetKind === 'url') flags.push('--target', ctx.baseUrl);
    if (ctx.strict) flags.push('--strict');
    flags.push('<this run\'s --sim-fault options>');
  }
  const env = [`${REPLAY_ENV}=${quote(path)}`, ...(replayPath ? [`${REPLAY_COMMANDS_ENV}=${quote(replayPath)}`] : [])];
  return [...env, 'npx payconnect-conformance run --suite stateful', ...(grep ? ['--grep', quote(grep)] : []), '--seed', String(seed), '--runs', String(ctx.runs), ...flags.map((f) => (f.startsWith('<') ? f : quote(f)))].join(' ');
}
