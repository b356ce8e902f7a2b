/** The `run --help` text, derived from the flag table so it cannot drift from the parser. */
import { envVarOf, RUN_FLAGS, type RunFlag, type RunFlagGroup } from './flags.ts';

const HEADINGS: Record<RunFlagGroup, string> = {
  target: 'Target',
  network: 'Network (TLS and proxies towards a URL target)',
  run: 'Run',
  output: 'Output',
  simulator: 'Simulator (only with --target sim)',
};

const WIDTH = 100;
const COLUMN = 34;

/** The usage line of a flag: `--deadline <duration>`, `--no-html`. */
function usageOf(flag: RunFlag): string {
  if (flag.type === 'boolean') return flag.negated ? `--no-${flag.name}` : `--${flag.name}`;
  return `--${flag.name} ${flag.placeholder ?? '<value>'}`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function describe(flag: RunFlag): string[] {
  const env = flag.negated ? `${envVarOf(flag)}=0 or PAYCONNECT_NO_${flag.name.toUpperCase()}=1` : envVarOf(flag);
  const extra = [flag.defaultText ? `default: ${flag.defaultText}` : '', `env: ${env}`].filter(Boolean).join('; ');
  return [...wrap(flag.description, WIDTH - COLUMN), ...wrap(`(${extra})`, WIDTH - COLUMN)];
}

/**
 * The help text of `run`: usage, precedence, and each flag with its default and environment variable,
 * grouped. Returned, never printed.
 */
export function formatRunHelp(): string {
  const out = [
    'Usage: payconnect-conformance run [flags]',
    '',
    ...wrap(
      'Runs the Pay-Connect conformance suites against a target. Every flag can also be set by its ' +
        'environment variable (lists comma-separated, booleans 1, true, 0 or false) or in ' +
        'payconnect.config.ts with `export default defineConfig({ ... })`. ' +
        'Precedence: flag > environment > config file > default.',
      WIDTH,
    ),
  ];
  for (const group of Object.keys(HEADINGS) as RunFlagGroup[]) {
    out.push('', `${HEADINGS[group]}:`);
    for (const flag of RUN_FLAGS.filter((f) => f.group === group)) {
      const usage = `  ${usageOf(flag)}`;
      const [first = '', ...rest] = describe(flag);
      if (usage.length + 2 > COLUMN) out.push(usage, `${' '.repeat(COLUMN)}${first}`);
      else out.push(`${usage.padEnd(COLUMN)}${first}`);
      for (const line of rest) out.push(`${' '.repeat(COLUMN)}${line}`);
    }
  }
  return `${out.join('\n')}\n`;
}
