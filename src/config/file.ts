/**
 * The config file: found (named by --config / PAYCONNECT_CONFIG, or looked for in the working
 * directory), imported, and checked for its shape (a default-exported object with known keys). The
 * values themselves are validated by the resolver, like flag and environment values.
 */
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolkitError } from '../core/errors.ts';
import { invalidValue, type Candidate, type Candidates } from './candidate.ts';
import { DEFAULTS } from './defaults.ts';
import { RUN_FLAGS } from './flags.ts';
import { didYouMean, typeOf } from './messages.ts';
import type { OptionKey, UserConfig } from './types.ts';

/** A loaded config file: its absolute path and one candidate per key it sets. */
export interface LoadedConfigFile {
  readonly path: string;
  readonly values: Candidates;
}

const FILE_KEYS = RUN_FLAGS.map((f) => f.key).filter((k): k is Exclude<OptionKey, 'config'> => k !== 'config');
/** Nested sections of a config file (`sim: { ... }`, `checks: { ... }`) and the example each hint shows. */
const SECTIONS = { sim: 'sim: { faults: [...], stepDelay: "20ms", deadline: "1500ms" }', checks: 'checks: { disable: ["webhook.retried"] }' } as const;
type Section = keyof typeof SECTIONS;
const sectionOf = (key: string): Section | undefined => (Object.keys(SECTIONS) as Section[]).find((s) => key.startsWith(`${s}.`));
const TOP_KEYS: string[] = [...FILE_KEYS.filter((k) => !sectionOf(k)), ...Object.keys(SECTIONS)];
const sectionKeys = (s: Section): string[] => FILE_KEYS.filter((k) => k.startsWith(`${s}.`)).map((k) => k.slice(s.length + 1));
const SHAPE_HINT = 'the file must `export default defineConfig({ ... })` with the keys of UserConfig';

/**
 * Finds and loads the config file: the one `named` (a --config flag or PAYCONNECT_CONFIG), else the
 * first of payconnect.config.{ts,mjs,js} in `cwd`, else none.
 *
 * @throws ToolkitError PCC_USAGE when the file named by --config is missing (PCC_CONFIG_INVALID when
 *   named by PAYCONNECT_CONFIG); PCC_CONFIG_INVALID when the file throws on import, has no default
 *   export, exports something other than an object, or has an unknown key
 */
export async function readConfigFile(named: Candidate | undefined, cwd: string): Promise<LoadedConfigFile | undefined> {
  let path: string;
  if (named) {
    path = resolve(cwd, String(named.value));
    const kind = await kindOf(path);
    if (kind !== 'file') {
      throw invalidValue('config', named, kind === 'missing' ? `${path} does not exist` : `${path} is not a file`,
        `check the path, or leave the config file out to use ${DEFAULTS.configFiles.join(', ')} from the working directory`);
    }
  } else {
    const found = await findConfigFile(cwd);
    if (!found) return undefined;
    path = found;
  }
  return { path, values: toCandidates(await importConfig(path), path) };
}

/** The first of payconnect.config.{ts,mjs,js} in `cwd`, absolute, or undefined. */
export async function findConfigFile(cwd: string): Promise<string | undefined> {
  for (const name of DEFAULTS.configFiles) {
    const path = join(resolve(cwd), name);
    if ((await kindOf(path)) === 'file') return path;
  }
  return undefined;
}

async function kindOf(path: string): Promise<'file' | 'other' | 'missing'> {
  try {
    return (await stat(path)).isFile() ? 'file' : 'other';
  } catch {
    return 'missing';
  }
}

async function importConfig(path: string): Promise<Record<string, unknown>> {
  let mod: Record<string, unknown>;
  try {
    const url = pathToFileURL(path).href;
    // A TypeScript config is compiled by tsx for this one import; the toolkit itself may run built.
    mod = (/\.[cm]?ts$/.test(path) ? await (await import('tsx/esm/api')).tsImport(url, import.meta.url) : await import(url)) as Record<string, unknown>;
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    const why = typeof e.message === 'string' ? e.message.split('\n')[0] : String(error);
    const hint = e.code === 'ERR_UNKNOWN_FILE_EXTENSION'
      ? 'a .ts config file needs the tsx loader (the payconnect-conformance command has it); or write payconnect.config.mjs'
      : `fix the error in the file; ${SHAPE_HINT}`;
    throw new ToolkitError('PCC_CONFIG_INVALID', `config file ${path} could not be loaded: ${why}`, hint, { cause: error });
  }
  let config = mod.default;
  // A .ts file outside an ESM package is compiled to CommonJS: its default export arrives wrapped once more.
  if (isPlainObject(config) && Object.keys(config).length === 1 && isPlainObject(config.default)) config = config.default;
  if (config === undefined) {
    throw new ToolkitError('PCC_CONFIG_INVALID', `config file ${path} has no default export`, SHAPE_HINT);
  }
  if (!isPlainObject(config)) {
    throw new ToolkitError('PCC_CONFIG_INVALID', `config file ${path} must export an object, it exports ${typeOf(config)}`, SHAPE_HINT);
  }
  return config;
}

function toCandidates(config: Record<string, unknown>, path: string): Candidates {
  checkKeys(config, TOP_KEYS, '', path);
  for (const s of Object.keys(SECTIONS) as Section[]) {
    const section = config[s];
    if (section !== undefined && !isPlainObject(section)) {
      throw new ToolkitError('PCC_CONFIG_INVALID', `invalid ${s} from config file ${path}: expected an object, got ${typeOf(section)}`, `write ${SECTIONS[s]}`);
    }
    if (section) checkKeys(section, sectionKeys(s), `${s}.`, path);
  }
  const values: Candidates = {};
  for (const key of FILE_KEYS) {
    const s = sectionOf(key);
    const value = s ? (config[s] as Record<string, unknown> | undefined)?.[key.slice(s.length + 1)] : config[key as keyof UserConfig];
    if (value !== undefined) values[key] = { value, source: 'file', where: `config file ${path} (key ${key})`, baseDir: dirname(path) };
  }
  return values;
}

function checkKeys(object: Record<string, unknown>, known: string[], prefix: string, path: string): void {
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue;
    throw new ToolkitError('PCC_CONFIG_INVALID', `unknown key ${prefix}${key} in config file ${path}${didYouMean(key, known)}`,
      `the ${prefix ? `${prefix.slice(0, -1)} ` : ''}keys are: ${known.join(', ')}`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  // By tag, not prototype: the file may be evaluated in another realm (a test runner's module loader).
  return Object.prototype.toString.call(value) === '[object Object]';
}
