/**
 * The Allure 3 HTML report, generated from `allure-results/` by the `allure` package's own library
 * (`@allurereport/core`, called as its `generate` command calls it, in a child process of this Node,
 * offline) into a temporary folder that replaces `allure-report/` only once it is complete. History
 * lives beside it in a JSONL file, so it carries over while the reports folder is kept.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { ToolkitError, isToolkitError } from '../core/index.ts';
import { findAllureBundle } from './allure-bundle.ts';
import { allure3Categories } from './allure-results.ts';
import { REPORT_FILES, replaceDirectory, stagingDirectory, writeReportFileInPieces } from './write.ts';

/** Options of {@link generateAllureHtml}. */
export interface AllureHtmlOptions {
  /** The allure-results folder. */
  resultsDir: string;
  /** The report folder, replaced whole (e.g. `reports/allure-report`). */
  outputDir: string;
  /** The history file; absent means no history. */
  historyPath?: string;
  /** Add this run to the history (false when a report is only regenerated). @default true */
  appendHistory?: boolean;
  /** The report's title. @default 'Pay-Connect conformance' */
  name?: string;
  /** Key-value pairs shown at the top of the report (never a secret). @default {} */
  variables?: Record<string, string>;
  /** @default 120000 */
  timeoutMs?: number;
  /** A generator started ahead ({@link warmAllure}): used instead of starting one now. */
  warm?: WarmAllure;
  /** false: the installed packages, even where the build's bundle fits them (to compare the two). @default true */
  bundle?: boolean;
}

/** How many runs the Allure history keeps (its trend charts and each test's history tab). */
export const HISTORY_RUNS = 3;

/** The `allure` command line script of the installed package. */
export function allureCliPath(): string {
  const main = createRequire(import.meta.url).resolve('allure');
  return join(dirname(main), '..', 'cli.js');
}

/** The analytics snippet Allure's page template carries: a report must not call out when opened. */
const ANALYTICS =
  /<script async src="https:\/\/www\.googletagmanager\.com\/[^"]*"><\/script>\s*<script>\s*window\.dataLayer[\s\S]*?<\/script>/g;

/** Removes remote analytics from the report's HTML pages. */
export function stripAnalytics(html: string): string {
  return html.replace(ANALYTICS, '');
}

/**
 * {@link stripAnalytics} on a file of tens of MB (the single-file report embeds every attachment):
 * the snippet is found in the bytes and cut out, without turning the whole file into a string.
 */
export function stripAnalyticsInFile(path: string): void {
  const bytes = readFileSync(path);
  const start = bytes.indexOf('<script async src="https://www.googletagmanager.com/');
  if (start < 0) return;
  const layer = bytes.indexOf('window.dataLayer', start);
  const close = layer < 0 ? -1 : bytes.indexOf('</script>', layer);
  if (close < 0) return;
  const end = close + '</script>'.length;
  const kept = stripAnalytics(bytes.subarray(start, end).toString('utf8'));
  writeReportFileInPieces(path, [bytes.subarray(0, start), kept, bytes.subarray(end)]);
}

/**
 * The environment the generator runs in: offline, no colours, and no PATH. It runs no program of its
 * own, but Allure's CI detection asks git, one blocking child each, five times, for the repository's
 * remote URL, its top folder and branch: those of wherever the run happened, which a report handed
 * over as evidence has no business carrying. Where nothing is found on the PATH each fails at once
 * (about 5 ms instead of 11, 30 to 50 ms of every report after the tests).
 */
const allureEnv = () => ({
  ...process.env,
  ALLURE_NO_ANALYTICS: 'true',
  NO_COLOR: '1',
  CI: process.env.CI ?? '',
  ...(process.platform === 'win32' ? {} : { PATH: '' }),
});

/**
 * What the generator imports, resolved from the installed `allure` package as its command line
 * resolves them: Allure's core (the report, its config) and the two plugins every report of ours
 * loads, awesome (the HTML) and agent (which Allure adds to every config unless one names it). The
 * first is what the generator needs; the plugins would otherwise be imported while the report is
 * being made, after the tests (about 30 ms). Where the build's bundle of them fits the installed
 * packages (allure-bundle.ts), the generator loads that one file instead.
 */
export const ALLURE_MODULES: readonly string[] = ['@allurereport/core', '@allurereport/plugin-awesome', '@allurereport/plugin-agent'];

/** The line the generator starts its output with: which modules it loaded (`bundle`, or `packages` and why). */
const MODULES_LINE = /^pcc-allure-modules: (.*)$/m;

/**
 * What the generator runs (`node --input-type=module -e <script> <allure's cli.js> <bundle>`): it
 * loads {@link ALLURE_MODULES} (from the bundle where it is given one, as JSON: allure-bundle.ts;
 * else `{ why }`), then waits for one line on stdin (`{ cwd, config, resultsDir }`) and makes the
 * report as `allure generate` does (its `generate` command is these calls of `@allurereport/core`:
 * the config resolved, the results read, the plugins done), without the command line around it (its
 * parser and its two dozen commands: about 0.2 CPU-s of modules and 50 ms after the tests). From the bundle,
 * the config's plugins are made from the bundled classes as Allure's `resolvePlugins` makes them
 * (the same instance per key, `agent` added), instead of being imported from the packages by name.
 * Stdin closed without a line (the run ended without an HTML report, or its process died): it exits.
 */
const GENERATOR_SCRIPT = `
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
const from = createRequire(process.argv[1]);
const load = (m) => import(pathToFileURL(from.resolve(m)).href);
const bundle = JSON.parse(process.argv[2] ?? '{}');
let modules;
let used = 'packages (' + (bundle.why ?? 'no bundle given') + ')';
if (bundle.url) {
  try {
    globalThis.__pccAllurePackages = bundle.packages;
    const b = await import(bundle.url);
    modules = { core: b.core, plugins: { awesome: b.awesome, agent: b.agent } };
    used = 'bundle';
  } catch (e) {
    used = 'packages (the bundle failed: ' + String(e?.message ?? e).split('\\n')[0] + ')';
  }
}
if (!modules) {
  const loaded = [];
  for (const m of ${JSON.stringify(ALLURE_MODULES)}) loaded.push(await load(m).catch((e) => ({ failed: e })));
  modules = loaded[0].failed ? { failed: loaded[0].failed } : { core: loaded[0] };
}
// Which modules it loaded, for the caller (generateAllureHtml's result).
process.stderr.write('pcc-allure-modules: ' + used + '\\n');
let line = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', async (chunk) => {
  line += chunk;
  const nl = line.indexOf('\\n');
  if (nl < 0) return;
  process.stdin.removeAllListeners('data');
  process.stdin.pause();
  const { cwd, config, resultsDir } = JSON.parse(line.slice(0, nl));
  try {
    process.chdir(cwd);
    if (modules.failed) throw modules.failed;
    const { core, plugins } = modules;
    const keys = Object.keys(config.plugins ?? {});
    let resolved;
    if (plugins && keys.every((k) => plugins[k])) {
      resolved = await core.resolveConfig(config, { cwd, plugins: {} });
      resolved.plugins = [...keys, ...(keys.includes('agent') ? [] : ['agent'])].map((id) => {
        const given = config.plugins[id] ?? { options: {} };
        const options = given.options ?? {};
        const context = 'enabled' in given ? { enabled: given.enabled } : {};
        return { id, enabled: given.enabled ?? true, options, plugin: new plugins[id](given.options, context) };
      });
    } else {
      resolved = await core.resolveConfig(config, { cwd });
    }
    const report = new core.AllureReport(resolved);
    await report.restoreState([]);
    await report.start();
    await report.readDirectory(resultsDir);
    await report.done();
  } catch (e) {
    // What went wrong, for the error the caller makes of its output's last lines (Allure's own stack is no help there).
    process.stderr.write(String(e?.message ?? e) + '\\n');
    process.exitCode = 1;
  }
});
process.stdin.on('end', () => { if (!line.includes('\\n')) process.exit(0); });
`;

/** What the generator is given: the folder it runs in, Allure's config (its `output` the report's folder), the results. */
export interface AllureJob {
  cwd: string;
  config: Record<string, unknown>;
  resultsDir: string;
}

/** A generator's process: its end, exit code and output. */
interface AllureProcess {
  child: ChildProcessWithoutNullStreams;
  done: Promise<{ code: number | null; output: string }>;
}

function startGenerator(bundle = true): AllureProcess {
  const cli = allureCliPath();
  const found = bundle ? findAllureBundle(dirname(cli)) : { why: 'not asked for' };
  const args = ['--input-type=module', '-e', GENERATOR_SCRIPT, cli, JSON.stringify(found.bundle ?? { why: found.why })];
  const child = spawn(process.execPath, args, {
    env: allureEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  // A generator that died before it was given work reports it when given work, not as a stray error.
  child.stdin.on('error', () => undefined);
  const done = new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
  done.catch(() => undefined);
  return { child, done };
}

/** Gives `p` its one job. */
function give(p: AllureProcess, job: AllureJob): AllureProcess {
  p.child.stdin.end(`${JSON.stringify(job)}\n`);
  return p;
}

/** Waits for `p` to end, killing it after `timeoutMs`. */
async function finish(p: AllureProcess, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  const timer = setTimeout(() => p.child.kill('SIGKILL'), timeoutMs);
  try {
    return await p.done;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An Allure generator started ahead of its work: its modules load (about 0.7 s of a 1.8 s HTML
 * report) while the run's tests mostly wait, instead of after them. Give it to
 * {@link generateAllureHtml} as `warm`; `close()` ends it when it was not used (a run that wrote no HTML).
 */
export interface WarmAllure {
  /** Makes the report `job` describes; only once. */
  run(job: AllureJob): AllureProcess;
  /** Ends it when it was not used; resolves once it is gone. */
  close(): Promise<void>;
}

/** Starts a {@link WarmAllure}. */
export function warmAllure(): WarmAllure {
  const p = startGenerator();
  let used = false;
  return {
    run(job) {
      if (used) throw new Error('a warm Allure generator runs once');
      used = true;
      // One that ended meanwhile (killed, out of memory): a generator is started now, as without it.
      if (p.child.exitCode !== null || p.child.signalCode !== null) return give(startGenerator(), job);
      return give(p, job);
    },
    async close() {
      if (used) return;
      p.child.stdin.end();
      await p.done.catch(() => undefined);
    },
  };
}

/**
 * Generates the HTML report; the previous one stays until the new one is complete. Returns which
 * modules the generator loaded: `bundle` (allure-bundle.ts), or `packages` and why not the bundle.
 */
export async function generateAllureHtml(given: AllureHtmlOptions): Promise<{ modules: string }> {
  // Absolute: the generator runs in another folder, where relative paths would point elsewhere.
  const opts = {
    ...given,
    resultsDir: resolvePath(given.resultsDir),
    outputDir: resolvePath(given.outputDir),
    ...(given.historyPath ? { historyPath: resolvePath(given.historyPath) } : {}),
  };
  const fail = (why: string, cause?: unknown) =>
    new ToolkitError(
      'PCC_REPORT_WRITE',
      `the Allure HTML report could not be generated into ${opts.outputDir}: ${why}`,
      'check that the reports folder is writable; --no-html skips the HTML report',
      { cause },
    );
  if (!existsSync(opts.resultsDir)) throw fail(`no results in ${opts.resultsDir}`);
  const tmpOut = stagingDirectory(opts.outputDir);
  const cfgDir = mkdtempSync(join(tmpdir(), 'pcc-allure-'));
  try {
    const config = {
      name: opts.name ?? 'Pay-Connect conformance',
      output: tmpOut,
      // The last runs only: the history file and the report (which embeds it per test) stay bounded.
      ...(opts.historyPath ? { historyPath: opts.historyPath, appendHistory: opts.appendHistory ?? true, historyLimit: HISTORY_RUNS } : {}),
      // One self-contained index.html: written in well under half the time of thousands of files
      // (attachments embedded), and it opens from the file system as well as over HTTP.
      plugins: {
        awesome: { options: { reportName: opts.name ?? 'Pay-Connect conformance', groupBy: ['epic', 'feature'], singleFile: true } },
      },
      categories: allure3Categories(),
      variables: opts.variables ?? {},
    };
    // Its own temporary folder, outside any git repository: Allure resolves relative paths and looks
    // for a repository from there (see allureEnv). Every path it is given is absolute.
    const job: AllureJob = { cwd: cfgDir, config, resultsDir: opts.resultsDir };
    const allure = opts.warm ? opts.warm.run(job) : give(startGenerator(opts.bundle), job);
    const { code, output } = await finish(allure, opts.timeoutMs ?? 120_000);
    const index = join(tmpOut, 'index.html');
    if (code !== 0 || !existsSync(index))
      throw fail(`the Allure generator exited with ${code}: ${output.trim().split('\n').slice(-5).join(' | ')}`);
    stripAnalyticsInFile(index);
    replaceDirectory(tmpOut, opts.outputDir);
    return { modules: MODULES_LINE.exec(output)?.[1] ?? 'unknown' };
  } catch (e) {
    rmSync(tmpOut, { recursive: true, force: true });
    if (e instanceof ToolkitError) throw e;
    throw fail((e as Error).message, e);
  } finally {
    rmSync(cfgDir, { recursive: true, force: true });
  }
}

/**
 * The Allure HTML report of a reports folder (`allure-report/` from `allure-results/`, the folder's
 * history carried), for every command that writes reports. The other reports are written by then: a
 * failure here is said on `stderr` and returned, and the caller counts it as an error of the toolkit (exit 2).
 */
export async function writeHtmlReport(
  reportsDir: string,
  o: { name?: string; stderr: (s: string) => void; warm?: WarmAllure },
): Promise<{ allureReport?: string; htmlError?: string }> {
  const allureReport = join(reportsDir, REPORT_FILES.allureReport);
  try {
    await generateAllureHtml({
      resultsDir: join(reportsDir, REPORT_FILES.allureResults),
      outputDir: allureReport,
      historyPath: join(reportsDir, REPORT_FILES.allureHistory),
      ...(o.name ? { name: o.name } : {}),
      ...(o.warm ? { warm: o.warm } : {}),
    });
    return { allureReport };
  } catch (e) {
    const htmlError = isToolkitError(e) ? e.toUserMessage() : String(e);
    o.stderr(`${htmlError}\n`);
    return { htmlError };
  }
}
