/**
 * The one reader of every command's command line. A command declares its flags as rows (name, type,
 * placeholder, description, default, environment variable) in sections; from those rows come the
 * parser, the `--help` text and the did-you-mean of an unknown flag, so none of them can drift from
 * another. Shared groups (the target's flags, the reports' flags) are rows of `run`'s table reused.
 * Values are parsed by the shared parsers of parsers.ts through {@link flagValue}.
 */
import { parseArgs } from 'node:util';
import { ToolkitError } from '../core/errors.ts';
import { didYouMean } from './messages.ts';
import { InvalidValue, type Parser } from './parsers.ts';

/** One flag of a command. */
export interface FlagRow {
  /** The long name, without dashes (`integrator-id`). */
  readonly name: string;
  /** Booleans also accept `--no-<name>`. */
  readonly type: 'string' | 'boolean';
  /** May be repeated. */
  readonly multiple?: boolean;
  /** A one-letter alias (`-h`). */
  readonly short?: string;
  /** The value as shown in help (`<duration>`). */
  readonly placeholder?: string;
  readonly description: string;
  /** The default as shown in help; absent when there is none. */
  readonly defaultText?: string;
  /** Shown in help as `--no-<name>`, since the default is on. */
  readonly negated?: boolean;
  /** The environment variable(s) that also set it, as help shows them. */
  readonly envText?: string;
}

/** Flags under one heading of the help. */
export interface FlagSection {
  readonly heading: string;
  readonly flags: readonly FlagRow[];
}

/** What a command takes and how its help reads. */
export interface CommandSpec {
  /** As typed after `payconnect-conformance` (`merge-reports`). */
  readonly name: string;
  /** What follows the name in the usage line (`<shard dir>... [flags]`). */
  readonly synopsis: string;
  /** The paragraph under the usage line. */
  readonly about: string;
  readonly sections: readonly FlagSection[];
  /** Positional arguments: absent, the command takes flags only. */
  readonly positionals?: { readonly what: string; readonly hint?: string };
  /** `--` ends the flags; what follows is returned as `rest` (certify-client's command). */
  readonly dashDash?: boolean;
  /** Preformatted text after the flags (rules, exit codes). */
  readonly notes?: string;
}

/** The flag that every command has. */
export const HELP_FLAG = { name: 'help', short: 'h', type: 'boolean', description: 'This help' } as const satisfies FlagRow;

type ValueOf<F> = F extends { type: 'boolean' } ? boolean : F extends { multiple: true } ? string[] : string;
type RowsOf<S extends CommandSpec> = S['sections'][number]['flags'][number];
/** The values of a command's flags, typed from its rows (a flag not given is absent). */
export type FlagValues<S extends CommandSpec> = { [F in RowsOf<S> as F['name']]?: ValueOf<F> };

/** A command line read by {@link parseCommandLine}. */
export interface CommandLine<S extends CommandSpec> {
  readonly values: FlagValues<S>;
  readonly positionals: string[];
  /** `--help` or `-h` was given: print {@link formatCommandHelp} and do nothing else. */
  readonly help: boolean;
  /** What follows `--` (null: no `--`), with {@link CommandSpec.dashDash}. */
  readonly rest: string[] | null;
}

const rowsOf = (spec: CommandSpec): FlagRow[] => [...spec.sections.flatMap((s) => s.flags), HELP_FLAG];

/** Every spelling a command accepts, for the did-you-mean of a misspelt flag. */
export function spellingsOf(spec: CommandSpec): string[] {
  return rowsOf(spec).flatMap((f) => [
    ...(f.type === 'boolean' && f !== HELP_FLAG ? [`--${f.name}`, `--no-${f.name}`] : [`--${f.name}`]),
    ...(f.short ? [`-${f.short}`] : []),
  ]);
}

const helpHint = (spec: CommandSpec) => `run "payconnect-conformance ${spec.name} --help" to list every flag`;

/**
 * Reads a command's arguments (after the command name): flags by the rows, positionals when the
 * command takes them, `--help` before anything else (a misspelt flag beside it is still an error).
 *
 * @throws ToolkitError PCC_USAGE for an unknown flag (naming it and the close valid ones), a missing
 *   value, a value given to a boolean, or a positional argument the command does not take
 */
export function parseCommandLine<const S extends CommandSpec>(spec: S, argv: readonly string[]): CommandLine<S> {
  const dash = spec.dashDash ? argv.indexOf('--') : -1;
  const flags = dash === -1 ? [...argv] : argv.slice(0, dash);
  const rest = dash === -1 ? null : argv.slice(dash + 1);
  const options = optionsOf(spec);
  let parsed;
  try {
    parsed = parseArgs({ args: joinNegativeValues(flags, options), options, strict: true, allowPositionals: true, allowNegative: true });
  } catch (error) {
    throw usageError(spec, error, flags, options);
  }
  const values = parsed.values as Record<string, unknown>;
  const help = values.help === true;
  delete values.help;
  if (!help && parsed.positionals.length > 0 && !spec.positionals) {
    throw new ToolkitError(
      'PCC_USAGE',
      `unexpected argument ${JSON.stringify(parsed.positionals[0])}: ${spec.name} takes flags only`,
      helpHint(spec),
    );
  }
  return { values: values as FlagValues<S>, positionals: parsed.positionals, help, rest };
}

type Options = Record<string, { type: 'string' | 'boolean'; multiple: boolean; short?: string }>;

function optionsOf(spec: CommandSpec): Options {
  return Object.fromEntries(
    rowsOf(spec).map((f) => [f.name, { type: f.type, multiple: f.multiple ?? false, ...(f.short ? { short: f.short } : {}) }]),
  );
}

/**
 * `--seed -3` as `--seed=-3`: Node's parser takes a value that starts with a dash for a flag and
 * calls the argument ambiguous; a negative number is a value, for the value's parser to judge.
 */
function joinNegativeValues(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    const flag = /^--([a-z-]+)$/.exec(a)?.[1];
    if (flag && Object.hasOwn(options, flag) && options[flag]!.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

function usageError(spec: CommandSpec, error: unknown, argv: readonly string[], options: Options): ToolkitError {
  const code = (error as { code?: unknown }).code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const spellings = spellingsOf(spec);
    // The flag as the user spelled it, never its value (`--secret=...` is named `--secret`).
    const flag = parseArgs({
      args: [...argv],
      options,
      strict: false,
      allowPositionals: true,
      allowNegative: true,
      tokens: true,
    }).tokens.find((t) => t.kind === 'option' && !spellings.includes(t.rawName));
    const name = flag?.kind === 'option' ? flag.rawName : '(unknown)';
    return new ToolkitError('PCC_USAGE', `unknown flag ${name}${didYouMean(name, spellings)}`, helpHint(spec), { cause: error });
  }
  // Node's other messages name the flag only, never a value.
  const message = error instanceof Error ? error.message.replace(/\s*\n\s*/g, ' ') : String(error);
  return new ToolkitError('PCC_USAGE', message, helpHint(spec), { cause: error });
}

/**
 * A flag's value through one of the shared parsers (parsers.ts): a duration, a port, a listen address.
 *
 * @throws ToolkitError PCC_USAGE naming the flag, its value and the fix
 */
export function flagValue<T>(flag: string, value: string | undefined, parse: Parser<T>): T | undefined {
  if (value === undefined) return undefined;
  try {
    return parse(value, true);
  } catch (error) {
    if (error instanceof InvalidValue)
      throw new ToolkitError('PCC_USAGE', `invalid --${flag} ${JSON.stringify(value)}: ${error.reason}`, error.hint, { cause: error });
    throw error;
  }
}

const WIDTH = 100;
const COLUMN = 34;

/** The usage of a flag: `--deadline <duration>`, `--no-html`, `-h, --help`. */
function usageOf(flag: FlagRow): string {
  const short = flag.short ? `-${flag.short}, ` : '';
  if (flag.type === 'boolean') return `${short}${flag.negated ? `--no-${flag.name}` : `--${flag.name}`}`;
  return `${short}--${flag.name} ${flag.placeholder ?? '<value>'}`;
}

/** `text` cut into lines of at most `width` characters, at spaces. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
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

function describe(flag: FlagRow): string[] {
  const extra = [flag.defaultText ? `default: ${flag.defaultText}` : '', flag.envText ? `env: ${flag.envText}` : '']
    .filter(Boolean)
    .join('; ');
  return [...wrap(flag.description, WIDTH - COLUMN), ...(extra ? wrap(`(${extra})`, WIDTH - COLUMN) : [])];
}

/** The help of a command, from its rows: usage, what it does, each flag with default and env. Returned, never printed. */
export function formatCommandHelp(spec: CommandSpec): string {
  const out = [`Usage: payconnect-conformance ${spec.name} ${spec.synopsis}`, ''];
  for (const paragraph of spec.about.split(/\n\n/)) out.push(...wrap(paragraph, WIDTH), '');
  const sections = [...spec.sections, { heading: 'Help', flags: [HELP_FLAG] }];
  for (const section of sections) {
    if (section.flags.length === 0) continue;
    out.push(`${section.heading}:`);
    for (const flag of section.flags) {
      const usage = `  ${usageOf(flag)}`;
      const [first = '', ...rest] = describe(flag);
      if (usage.length + 2 > COLUMN) out.push(usage, `${' '.repeat(COLUMN)}${first}`);
      else out.push(`${usage.padEnd(COLUMN)}${first}`);
      for (const line of rest) out.push(`${' '.repeat(COLUMN)}${line}`);
    }
    out.push('');
  }
  if (spec.notes) out.push(...spec.notes.replace(/\n+$/, '').split('\n'), '');
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/**
 * The flags among `rows` that were given, spelled again as arguments: a command hands its shared
 * rows (the target's, the network's) to resolveConfig, which resolves them as `run` does.
 */
export function argvOf(rows: readonly FlagRow[], values: Readonly<Record<string, unknown>>): string[] {
  return rows.flatMap((row) => {
    const value = values[row.name];
    if (value === undefined) return [];
    if (typeof value === 'boolean') return [value ? `--${row.name}` : `--no-${row.name}`];
    return (Array.isArray(value) ? value : [value]).map((v) => `--${row.name}=${String(v)}`);
  });
}
