/**
 * The config file: found (named by --config / PAYCONNECT_CONFIG, or looked for in the working
 * directory), imported, and checked for its shape (a default-exported object with known keys). The
 * values themselves are validated by the resolver, like flag and environment values.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolkitError } from '../core/errors.ts';
import { MODULE_CACHE_ENV, packageCacheDir } from '../core/package-root.ts';
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
const SECTIONS = {
  sim: 'sim: { faults: [...], stepDelay: "20ms", deadline: "1500ms" }',
  checks: 'checks: { disable: ["webhook.retried"] }',
  coverage: 'coverage: { require: ["operations", "statuses"], exclude: [{ item: "getToken 500", reason: "..." }] }',
  tls: 'tls: { caFile: "ca.pem", clientCert: "client.pem", clientKey: "client.key" }',
} as const;
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
      throw invalidValue(
        'config',
        named,
        kind === 'missing' ? `${path} does not exist` : `${path} is not a file`,
        `check the path, or leave the config file out to use ${DEFAULTS.configFiles.join(', ')} from the working directory`,
      );
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

/**
 * Imports a config file. A TypeScript one (.ts, .mts, .cts) is compiled by esbuild to an ES module
 * beside it and imported natively, whatever the user's project is (ESM or CommonJS): it then shares
 * the running toolkit's modules (a second copy under a loader's namespace broke undici), and a syntax
 * error keeps its line and column.
 */
async function importConfig(path: string): Promise<Record<string, unknown>> {
  let mod: Record<string, unknown>;
  try {
    if (/\.[cm]?ts$/.test(path)) mod = (await importTypeScript(path)) as Record<string, unknown>;
    else {
      await checkSyntax(path); // Node's own SyntaxError names no line
      mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    }
  } catch (error) {
    if (error instanceof ToolkitError) throw error;
    const e = error as { code?: unknown; message?: unknown };
    const why = typeof e.message === 'string' ? e.message.split('\n')[0] : String(error);
    throw new ToolkitError(
      'PCC_CONFIG_INVALID',
      `config file ${path} could not be loaded: ${why}`,
      `fix the error in the file; ${SHAPE_HINT}`,
      { cause: error },
    );
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

/** esbuild's error for `path`, as a config error with file:line:column and the line's text. */
function syntaxError(path: string, error: unknown): ToolkitError {
  const first = (error as { errors?: { text: string; location?: { line: number; column: number; lineText: string } | null }[] })
    .errors?.[0];
  const at = first?.location ? `${path}:${first.location.line}:${first.location.column + 1}` : path;
  return new ToolkitError(
    'PCC_CONFIG_INVALID',
    `config file ${at}: ${first?.text ?? (error as Error).message}${first?.location ? ` (in: ${first.location.lineText.trim()})` : ''}`,
    `fix the file at that line; ${SHAPE_HINT}`,
    { cause: error },
  );
}

/** A JavaScript config's syntax, checked by esbuild (which says where) before Node imports it. */
async function checkSyntax(path: string): Promise<void> {
  const { transform } = await import('esbuild');
  const source = await readFile(path, 'utf8');
  try {
    await transform(source, { loader: 'js', format: path.endsWith('.cjs') ? 'cjs' : 'esm', sourcefile: path, target: 'node20' });
  } catch (error) {
    throw syntaxError(path, error);
  }
}

/**
 * Where compiled config files are kept, by their source's hash: the package's own
 * `node_modules/.cache/payconnect-conformance/config`, beside the suites' module cache (and off with
 * it: PAYCONNECT_MODULE_CACHE=off). Loading esbuild and starting its service cost a run about 0.1 s
 * before anything else could start; the repository's own config compiled once is then read back.
 */
export function compiledConfigCache(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[MODULE_CACHE_ENV]?.trim() === 'off' ? undefined : packageCacheDir('config');
}

/** The esbuild options a config file is compiled with (their text is part of a cache entry's key). */
const COMPILE = { loader: 'ts', format: 'esm', target: 'node20' } as const;

/**
 * `source` compiled to an ES module: from the cache when an entry of the same source, options and
 * esbuild version is there, else by esbuild, then kept (written whole or not at all; a cache that
 * cannot be written is passed by). A syntax error is the config's, with its line and column.
 */
async function compileTypeScript(path: string, source: string): Promise<string> {
  const dir = compiledConfigCache();
  const esbuildVersion = (createRequire(import.meta.url)('esbuild/package.json') as { version: string }).version;
  const key = createHash('sha256')
    .update(`${esbuildVersion}\n${JSON.stringify(COMPILE)}\n${source}`)
    .digest('hex');
  const entry = dir && join(dir, `${key}.mjs`);
  if (entry) {
    try {
      return await readFile(entry, 'utf8');
    } catch {
      // not compiled yet
    }
  }
  const { transform } = await import('esbuild');
  let code: string;
  try {
    ({ code } = await transform(source, { ...COMPILE, sourcefile: path }));
  } catch (error) {
    throw syntaxError(path, error);
  }
  if (entry) {
    const tmp = `${entry}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(entry), { recursive: true });
      // As private as the config it came from (it may name a vault, a host or an OTP).
      await writeFile(tmp, code, { mode: 0o600 });
      await rename(tmp, entry);
    } catch {
      await rm(tmp, { force: true });
    }
  }
  return code;
}

/** Compiles `path` to a temporary ES module beside it (relative imports keep working), imports it, removes it. */
async function importTypeScript(path: string): Promise<unknown> {
  const code = await compileTypeScript(path, await readFile(path, 'utf8'));
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.mjs`);
  try {
    await writeFile(temp, code, { mode: 0o600 });
  } catch {
    return tsxImport(path); // a folder that takes no file: tsx compiles it in memory
  }
  try {
    return await import(pathToFileURL(temp).href);
  } catch (error) {
    // It imports TypeScript of its own (./shared.ts): only a loader can follow that.
    if ((error as { code?: unknown }).code === 'ERR_UNKNOWN_FILE_EXTENSION') return tsxImport(path);
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

async function tsxImport(path: string): Promise<unknown> {
  const { tsImport } = await import('tsx/esm/api');
  return tsImport(pathToFileURL(path).href, import.meta.url);
}

function toCandidates(config: Record<string, unknown>, path: string): Candidates {
  checkKeys(config, TOP_KEYS, '', path);
  for (const s of Object.keys(SECTIONS) as Section[]) {
    const section = config[s];
    if (section !== undefined && !isPlainObject(section)) {
      throw new ToolkitError(
        'PCC_CONFIG_INVALID',
        `invalid ${s} from config file ${path}: expected an object, got ${typeOf(section)}`,
        `write ${SECTIONS[s]}`,
      );
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
    throw new ToolkitError(
      'PCC_CONFIG_INVALID',
      `unknown key ${prefix}${key} in config file ${path}${didYouMean(key, known)}`,
      `the ${prefix ? `${prefix.slice(0, -1)} ` : ''}keys are: ${known.join(', ')}`,
    );
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  // By tag, not prototype: the file may be evaluated in another realm (a test runner's module loader).
  return Object.prototype.toString.call(value) === '[object Object]';
}
