/**
 * The command line: a thin shell over the programmatic API. It maps a toolkit error to one clear
 * message and exit code 2, and otherwise returns what the command returned.
 */
import { type RunIo, isToolkitError } from '../core/index.ts';
import { COMMAND_LIST } from './commands/index.ts';

/** The usage, from the list of commands. */
function usage(): string {
  const width = Math.max(...COMMAND_LIST.map((c) => c.name.length)) + 2;
  const lines = COMMAND_LIST.map((c) => `  ${c.name.padEnd(width)}${c.summary}`);
  return (
    `usage: payconnect-conformance <command> [options]\n\ncommands:\n${lines.join('\n')}\n\n'payconnect-conformance ` +
    `<command> --help' lists the flags of a command.\n`
  );
}

/** The name of every command, in the order the usage lists them. */
export const COMMAND_NAMES: readonly string[] = COMMAND_LIST.map((c) => c.name);

/** Runs a command line; returns the exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, io?: RunIo): Promise<number> {
  const out: RunIo = io ?? {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
    progress: Boolean(process.stdout.isTTY) && !env.CI,
  };
  const [command, ...rest] = argv;
  try {
    if (command === undefined || ['help', '--help', '-h'].includes(command)) {
      out.stdout(usage());
      return command === undefined ? 2 : 0;
    }
    const entry = COMMAND_LIST.find((c) => c.name === command);
    if (!entry) {
      out.stderr(`PCC_USAGE: unknown command "${command}"\n  fix: use one of ${COMMAND_NAMES.join(', ')}\n`);
      return 2;
    }
    return await (await entry.load()).default.run(rest, env, out);
  } catch (e) {
    if (isToolkitError(e)) {
      out.stderr(`${e.toUserMessage()}\n`);
      return 2;
    }
    out.stderr(`PCC_INTERNAL: ${(e as Error)?.stack ?? String(e)}\n  this is a bug of payconnect-conformance: please report it\n`);
    return 2;
  }
}
