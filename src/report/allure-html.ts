/**
 * The Allure 3 HTML report, generated from `allure-results/` by the `allure` package's own command
 * line (run with this Node, offline) into a temporary folder that replaces `allure-report/` only once
 * it is complete. History lives beside it in a JSONL file, so it carries over while the reports
 * folder is kept.
 */
import { spawn } from 'node:child_process';
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
}

/** How many runs the Allure history keeps (its trend charts and each test's history tab). */
export const HISTORY_RUNS = 3;

/** The `allure` command line script of the installed package. */
export function allureCliPath(): string {
  const main = createRequire(import.meta.url).resolve('allure');
  return join(dirname(main), '..', 'cli.js');
}

/** The analytics snippet Allure's page template carries: a report must not call out when opened. */
const ANALYTICS = /<script async src="https:\/\/www\.googletagmanager\.com\/[^"]*"><\/script>\s*<script>\s*window\.dataLayer[\s\S]*?<\/script>/g;

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

function run(args: string[], cwd: string, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ALLURE_NO_ANALYTICS: 'true', NO_COLOR: '1', CI: process.env.CI ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Generates the HTML report; the previous one stays until the new one is complete. */
export async function generateAllureHtml(given: AllureHtmlOptions): Promise<void> {
  // Absolute: the Allure command runs in another folder, where relative paths would point elsewhere.
  const opts = { ...given, resultsDir: resolvePath(given.resultsDir), outputDir: resolvePath(given.outputDir), ...(given.historyPath ? { historyPath: resolvePath(given.historyPath) } : {}) };
  const fail = (why: string, cause?: unknown) =>
    new ToolkitError('PCC_REPORT_WRITE', `the Allure HTML report could not be generated into ${opts.outputDir}: ${why}`, 'check that the reports folder is writable; --no-html skips the HTML report', { cause });
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
      plugins: { awesome: { options: { reportName: opts.name ?? 'Pay-Connect conformance', groupBy: ['epic', 'feature'], singleFile: true } } },
      categories: allure3Categories(),
      variables: opts.variables ?? {},
    };
    const cfgPath = join(cfgDir, 'allurerc.json');
    writeFileSync(cfgPath, JSON.stringify(config));
    const { code, output } = await run([allureCliPath(), 'generate', opts.resultsDir, '--config', cfgPath, '--output', tmpOut], dirname(opts.outputDir), opts.timeoutMs ?? 120_000);
    const index = join(tmpOut, 'index.html');
    if (code !== 0 || !existsSync(index)) throw fail(`allure generate exited with ${code}: ${output.trim().split('\n').slice(-5).join(' | ')}`);
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
export async function writeHtmlReport(reportsDir: string, o: { name?: string; stderr: (s: string) => void }): Promise<{ allureReport?: string; htmlError?: string }> {
  const allureReport = join(reportsDir, REPORT_FILES.allureReport);
  try {
    await generateAllureHtml({ resultsDir: join(reportsDir, REPORT_FILES.allureResults), outputDir: allureReport, historyPath: join(reportsDir, REPORT_FILES.allureHistory), ...(o.name ? { name: o.name } : {}) });
    return { allureReport };
  } catch (e) {
    const htmlError = isToolkitError(e) ? e.toUserMessage() : String(e);
    o.stderr(`${htmlError}\n`);
    return { htmlError };
  }
}
