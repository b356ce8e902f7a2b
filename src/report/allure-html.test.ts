/**
 * The Allure HTML report through a generator started ahead of its work (the run starts one as its
 * tests start): Allure's own library as its command line calls it, on real results.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { ALLURE_MODULES, allureCliPath, generateAllureHtml, warmAllure } from './allure-html.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A folder of its own with an empty allure-results/ in it. */
function resultsFolder(): { dir: string; resultsDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pcc-allure-html-'));
  dirs.push(dir);
  const resultsDir = join(dir, 'allure-results');
  mkdirSync(resultsDir);
  return { dir, resultsDir };
}

function results(): { dir: string; resultsDir: string } {
  const { dir, resultsDir } = resultsFolder();
  const now = Date.now();
  writeFileSync(
    join(resultsDir, '00000000-0000-4000-8000-000000000001-result.json'),
    JSON.stringify({
      uuid: '00000000-0000-4000-8000-000000000001',
      historyId: 'h1',
      name: 'config > the configuration',
      fullName: 'config > the configuration',
      status: 'passed',
      stage: 'finished',
      start: now - 5,
      stop: now,
      labels: [{ name: 'feature', value: 'config' }],
      steps: [],
      attachments: [],
      parameters: [],
    }),
  );
  return { dir, resultsDir };
}

test('a warm generator writes the report from the arguments it is given later, in the folder it is told', async () => {
  const warm = warmAllure();
  const { dir, resultsDir } = results();
  await generateAllureHtml({
    resultsDir,
    outputDir: join(dir, 'allure-report'),
    historyPath: join(dir, 'history.jsonl'),
    name: 'warm: PASS',
    warm,
  });
  const index = readFileSync(join(dir, 'allure-report', 'index.html'), 'utf8');
  expect(index).toContain('warm: PASS');
  expect(index).not.toContain('googletagmanager');
  // History beside the report, as with a generator started cold.
  expect(existsSync(join(dir, 'history.jsonl'))).toBe(true);
  await expect(async () => warm.run({ cwd: dir, config: {}, resultsDir })).rejects.toThrow(/runs once/);
}, 60_000);

test('a warm generator never given work ends when closed, and the next report is made cold', async () => {
  const warm = warmAllure();
  const t0 = Date.now();
  await warm.close();
  expect(Date.now() - t0).toBeLessThan(20_000);
  const { dir, resultsDir } = results();
  await generateAllureHtml({ resultsDir, outputDir: join(dir, 'allure-report') });
  expect(existsSync(join(dir, 'allure-report', 'index.html'))).toBe(true);
}, 60_000);

test('a report made in a git repository carries neither its remote nor its branch', async () => {
  const { dir, resultsDir } = results();
  execFileSync('git', ['init', '-q', '-b', 'private-branch'], { cwd: dir });
  execFileSync('git', ['remote', 'add', 'origin', 'https://github.com/acme/private-pos.git'], { cwd: dir });
  await generateAllureHtml({ resultsDir, outputDir: join(dir, 'allure-report'), name: 'made in a repository' });
  const index = readFileSync(join(dir, 'allure-report', 'index.html'), 'utf8');
  expect(index).toContain('made in a repository');
  expect(index).not.toContain('acme/private-pos');
  expect(index).not.toContain('private-branch');
}, 60_000);

test('every module the generator loads is where the installed command line resolves it', () => {
  // An upgrade that moves one would fail the report (core) or slow it (a plugin, then imported while
  // the report is made): this says so first.
  const from = createRequire(allureCliPath());
  for (const m of ALLURE_MODULES) expect(() => from.resolve(m), m).not.toThrow();
});

/** Results of three tests (passed, failed with an attachment, skipped) in a folder of their own. */
function threeResults(): { dir: string; resultsDir: string } {
  const { dir, resultsDir } = resultsFolder();
  const now = Date.now();
  const result = (n: number, status: string, extra: Record<string, unknown> = {}) =>
    writeFileSync(
      join(resultsDir, `00000000-0000-4000-8000-00000000000${n}-result.json`),
      JSON.stringify({
        uuid: `00000000-0000-4000-8000-00000000000${n}`,
        historyId: `h${n}`,
        name: `payment > test ${n}`,
        fullName: `payment > test ${n}`,
        status,
        stage: 'finished',
        start: now - 10 * n,
        stop: now,
        labels: [
          { name: 'epic', value: 'payment' },
          { name: 'feature', value: 'payment' },
        ],
        steps: [],
        attachments: [],
        parameters: [{ name: 'seed', value: String(n) }],
        ...extra,
      }),
    );
  result(1, 'passed');
  writeFileSync(join(resultsDir, 'a1-attachment.txt'), 'POST /v1/pay-connect/transactions/generate/ -> 201');
  result(2, 'failed', {
    statusDetails: { message: 'amount: expected 100, got 99', trace: 'at the check' },
    attachments: [{ name: 'exchange', source: 'a1-attachment.txt', type: 'text/plain' }],
  });
  result(3, 'skipped', { statusDetails: { message: 'not checked: no webhook receiver' } });
  return { dir, resultsDir };
}

test('the generator loads the build bundle of Allure, and its report is the one the installed packages make', async () => {
  const { dir, resultsDir } = threeResults();
  const made = async (bundle: boolean) => {
    const out = join(dir, `report-${bundle}`);
    const { modules } = await generateAllureHtml({ resultsDir, outputDir: out, name: 'bundled or not', bundle });
    // Allure reads the results in no fixed order: its lists of test ids are compared as sets.
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'), (_k, v: unknown) =>
      Array.isArray(v) && v.every((x) => typeof x === 'string') ? [...(v as string[])].sort() : v,
    ) as { meta?: Record<string, unknown> };
    delete summary.meta?.reportId;
    delete summary.meta?.createdAt;
    return {
      modules,
      summary,
      results: JSON.parse(readFileSync(join(out, 'test-results.json'), 'utf8')) as unknown,
      // The page embeds the same data: only its report id and time differ, which are as long.
      size: readFileSync(join(out, 'index.html')).length,
    };
  };
  const bundled = await made(true);
  const installed = await made(false);
  // A build stopped making the bundle, or it no longer fits the packages: said here first.
  expect(bundled.modules).toBe('bundle');
  expect(installed.modules).toBe('packages (not asked for)');
  expect(bundled.summary).toEqual(installed.summary);
  expect(bundled.results).toEqual(installed.results);
  expect(bundled.size).toBe(installed.size);
  expect(JSON.stringify(bundled.results)).toContain('test 2');
}, 60_000);

test('a report Allure cannot make is an error of the toolkit that says why', async () => {
  const { dir, resultsDir } = results();
  // Its history cannot be read: the place named is under a file.
  writeFileSync(join(dir, 'file'), 'x');
  const made = generateAllureHtml({ resultsDir, outputDir: join(dir, 'allure-report'), historyPath: join(dir, 'file', 'history.jsonl') });
  await expect(made).rejects.toMatchObject({ code: 'PCC_REPORT_WRITE', message: expect.stringMatching(/exited with 1: .*ENOTDIR/) });
  // The staging folder is gone; no report was left half made.
  expect(existsSync(join(dir, 'allure-report'))).toBe(false);
}, 60_000);
