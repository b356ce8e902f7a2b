/** The `run --help` text, derived from the flag table so it cannot drift from the parser. */
import { formatCommandHelp } from './command-line.ts';
import { RUN_COMMAND } from './flags.ts';

/**
 * The help text of `run`: usage, precedence, and each flag with its default and environment variable,
 * grouped. Returned, never printed.
 */
export function formatRunHelp(): string {
  return formatCommandHelp(RUN_COMMAND);
}
