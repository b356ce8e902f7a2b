/**
 * The Allure 3 HTML report, generated from `allure-results/` by the `allure` package's own command
 * line (run with this Node, offline) into a temporary folder that replaces `allure-report/` only once
 * it is complete. History lives beside it in a JSONL file, so it carries over while the reports
 * folder is kept.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { ToolkitError, isToolkitError } from '../core/index.ts';
import { allure3Categories } from './allure-results.ts';
import { REPORT_FILES, replaceDirectory, stagingDirectory } from './write.ts';

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
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, bytes.subarray(0, start));
    writeSync(fd, Buffer.from(kept, 'utf8'));
    writeSync(fd, bytes.subarray(end));
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** The environment the Allure command line runs in: offline, no colours. */
const allureEnv = () => ({ ...process.env, ALLURE_NO_ANALYTICS: 'true', NO_COLOR: '1', CI: process.env.CI ?? '' });

/**
 * What a warm generator imports ahead, resolved from the `allure` command line script: the Allure
 * packages the `generate` command needs, and the command line's own commands (its entry imports them
 * all; importing them runs nothing). Left to load with the command line, the commands cost about
 * 0.1 s of the report after the tests (from the Allure results written to the HTML report, medians
 * of 13 default runs on 2 cores: 0.90 s, 0.80 s with them loaded ahead).
 */
export const WARM_MODULES: readonly string[] = [
  '@allurereport/core',
  '@allurereport/plugin-awesome',
  'clipanion',
  './dist/commands/index.js',
];

/**
 * What a warm generator runs (`node --input-type=module -e`): it imports {@link WARM_MODULES}, resolved
 * from the installed `allure` package as its command line would resolve them, then waits for one line
 * on stdin (`{ cwd, args }`) and runs the command line with those arguments.
 * Stdin closed without a line (the run ended without an HTML report, or its process died): it exits.
 */
const WARM_SCRIPT = `
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
const cli = process.argv[1];
const from = createRequire(cli);
for (const m of ${JSON.stringify(WARM_MODULES)}) {
  try { await import(pathToFileURL(from.resolve(m)).href); } catch { /* loaded by the command line itself */ }
}
let line = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', async (chunk) => {
  line += chunk;
  const nl = line.indexOf('\\n');
  if (nl < 0) return;
  process.stdin.removeAllListeners('data');
  process.stdin.pause();
  const { cwd, args } = JSON.parse(line.slice(0, nl));
  process.chdir(cwd);
  // In place: the command line reads node:process's argv export, the same array.
  process.argv.splice(0, process.argv.length, process.argv[0], cli, ...args);
  await import(pathToFileURL(cli).href);
});
process.stdin.on('end', () => { if (!line.includes('\\n')) process.exit(0); });
`;

/** A child process running one Allure command line: its end, exit code and output. */
interface AllureProcess {
  child: ChildProcessWithoutNullStreams;
  done: Promise<{ code: number | null; output: string }>;
}

function startAllure(args: string[], cwd: string | undefined): AllureProcess {
  const child = spawn(process.execPath, args, { ...(cwd ? { cwd } : {}), env: allureEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
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
 * An Allure generator started ahead of its work: its command line's modules load (about 0.7 s of a
 * 1.8 s HTML report) while the run's tests mostly wait, instead of after them. Give it to
 * {@link generateAllureHtml} as `warm`; `close()` ends it when it was not used (a run that wrote no HTML).
 */
export interface WarmAllure {
  /** Runs the command line with `args` in `cwd`; only once. */
  run(args: string[], cwd: string): AllureProcess;
  /** Ends it when it was not used; resolves once it is gone. */
  close(): Promise<void>;
}

/** Starts a {@link WarmAllure}. */
export function warmAllure(): WarmAllure {
  const p = startAllure(['--input-type=module', '-e', WARM_SCRIPT, allureCliPath()], undefined);
  let used = false;
  return {
    run(args, cwd) {
      if (used) throw new Error('a warm Allure generator runs once');
      used = true;
      // One that ended meanwhile (killed, out of memory): the command line is started now, as without it.
      if (p.child.exitCode !== null || p.child.signalCode !== null) return startAllure([allureCliPath(), ...args], cwd);
      p.child.stdin.end(`${JSON.stringify({ cwd, args })}\n`);
      return p;
    },
    async close() {
      if (used) return;
      p.child.stdin.end();
      await p.done.catch(() => undefined);
    },
  };
}

/** Generates the HTML report; the previous one stays until the new one is complete. */
export async function generateAllureHtml(given: AllureHtmlOptions): Promise<void> {
  // Absolute: the Allure command runs in another folder, where relative paths would point elsewhere.
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
    const cfgPath = join(cfgDir, 'allurerc.json');
    writeFileSync(cfgPath, JSON.stringify(config));
    const args = ['generate', opts.resultsDir, '--config', cfgPath, '--output', tmpOut];
    // Every path is absolute: it runs in its temporary folder, outside any git repository. Where no CI
    // is detected, Allure asks git five times, one blocking child each (0.35 s of a report), for the
    // remote URL and branch of its folder: those of wherever the run happened, which a report handed
    // over as evidence has no business carrying.
    const cwd = cfgDir;
    const allure = opts.warm ? opts.warm.run(args, cwd) : startAllure([allureCliPath(), ...args], cwd);
    allure.child.stdin.end();
    const { code, output } = await finish(allure, opts.timeoutMs ?? 120_000);
    const index = join(tmpOut, 'index.html');
    if (code !== 0 || !existsSync(index))
      throw fail(`allure generate exited with ${code}: ${output.trim().split('\n').slice(-5).join(' | ')}`);
    stripAnalyticsInFile(index);
    replaceDirectory(tmpOut, opts.outputDir);
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
