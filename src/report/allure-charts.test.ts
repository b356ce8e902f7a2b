/**
 * The timing charts in the Allure report: global SVG attachments of the results, which the real
 * `allure` command line puts in the report's Global Attachments tab.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { addSample, emptyTimingDigest } from '../core/index.ts';
import { ALLURE_TIMING_PREFIX, writeAllureTimingCharts } from './allure-charts.ts';
import { generateAllureHtml } from './allure-html.ts';
import { timingSummaryOfDigest } from './timing.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function resultsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pcc-allure-charts-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'allure-results'));
  return join(dir, 'allure-results');
}

function timing() {
  const d = emptyTimingDigest();
  d.operations.createTransaction = [];
  d.operations.getTransaction = [];
  d.convergence.APPROVED = [];
  d.webhookDelay['transaction.approved'] = [];
  for (let i = 0; i < 20; i++) {
    addSample(d.operations.createTransaction, 30 + i);
    addSample(d.operations.getTransaction, 5 + (i % 4));
    addSample(d.convergence.APPROVED, 400 + 10 * i);
    addSample(d.webhookDelay['transaction.approved'], -20 + i);
  }
  return timingSummaryOfDigest(d);
}

interface Globals {
  attachments: { name: string; source: string; type: string }[];
  errors: unknown[];
}
const globalsIn = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('-globals.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Globals);

test('the answer-time, convergence and webhook-delay charts are global SVG attachments of the results', () => {
  const dir = resultsDir();
  expect(writeAllureTimingCharts(dir, timing())).toMatch(/-globals\.json$/);
  const [globals, ...more] = globalsIn(dir);
  expect(more).toEqual([]);
  expect(globals!.errors).toEqual([]);
  expect(globals!.attachments.map((a) => [a.name, a.type])).toEqual([
    [`${ALLURE_TIMING_PREFIX}Answer time per operation (ms)`, 'image/svg+xml'],
    [`${ALLURE_TIMING_PREFIX}Convergence: request to final status (ms)`, 'image/svg+xml'],
    [`${ALLURE_TIMING_PREFIX}Webhook delay: arrival minus first poll sight (ms; < 0 webhook first)`, 'image/svg+xml'],
  ]);
  const svgs = globals!.attachments.map((a) => readFileSync(join(dir, a.source), 'utf8'));
  for (const svg of svgs) expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  expect(svgs[0]).toContain('createTransaction (n 20)');
  expect(svgs[1]).toContain('APPROVED (n 20)');
  expect(svgs[2]).toContain('transaction.approved (n 20)');
});

test('a run without timing (or with none charted) writes no globals file', () => {
  const dir = resultsDir();
  expect(writeAllureTimingCharts(dir, undefined)).toBeUndefined();
  expect(writeAllureTimingCharts(dir, timingSummaryOfDigest(emptyTimingDigest()))).toBeUndefined();
  expect(readdirSync(dir)).toEqual([]);
});

test('the Allure report generated from them lists the charts as its global attachments', async () => {
  const dir = resultsDir();
  const now = Date.now();
  writeFileSync(
    join(dir, '00000000-0000-4000-8000-000000000001-result.json'),
    JSON.stringify({
      uuid: '00000000-0000-4000-8000-000000000001',
      historyId: 'h1',
      name: 'config > the configuration',
      fullName: 'config > the configuration',
      status: 'passed',
      stage: 'finished',
      start: now - 5,
      stop: now,
      labels: [],
      steps: [],
      attachments: [],
      parameters: [],
    }),
  );
  writeAllureTimingCharts(dir, timing());
  const out = join(dir, '..', 'allure-report');
  await generateAllureHtml({ resultsDir: dir, outputDir: out, name: 'charts' });
  const index = readFileSync(join(out, 'index.html'), 'utf8');
  // The single-file report embeds each of its data files as d("<path>","<base64>").
  const embedded = (path: string) => {
    const m = index.match(new RegExp(`d\\("${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}","([^"]*)"\\)`));
    return m ? Buffer.from(m[1]!, 'base64').toString('utf8') : undefined;
  };
  const widget = JSON.parse(embedded('widgets/globals.json') ?? '{}') as {
    attachments?: { id: string; name: string; ext: string; missed: boolean; contentType: string }[];
  };
  const written = globalsIn(dir)[0]!.attachments.map((a) => a.name);
  expect(written).toHaveLength(3);
  expect(widget.attachments?.map((a) => [a.name, a.contentType, a.missed])).toEqual(written.map((name) => [name, 'image/svg+xml', false]));
  for (const a of widget.attachments!) expect(embedded(`data/attachments/${a.id}${a.ext}`)).toMatch(/^<svg /);
  if (process.env.PCC_KEEP_CHARTS_REPORT) writeFileSync(process.env.PCC_KEEP_CHARTS_REPORT, index);
}, 60_000);
