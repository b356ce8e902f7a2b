/**
 * A command of the command line: its flags (the spec its help and parsing come from) and what it does.
 * Each lives in commands/<name>.ts as `export default defineCommand({ spec, run })`; commands/index.ts
 * lists them, and main loads one only when it runs.
 */
import type { CommandSpec } from '../config/index.ts';
import type { RunIo } from '../core/index.ts';

export interface Command {
  /** Its flags, positionals and help text. */
  spec: CommandSpec;
  /** Runs it; returns the exit code (0, 1 a finding about the system judged, 2 bad input or a toolkit error). */
  run: (argv: string[], env: NodeJS.ProcessEnv, io: RunIo) => Promise<number>;
}

/** A command, typed: `export default defineCommand({ spec, run })`. */
export function defineCommand(command: Command): Command {
  return command;
}
