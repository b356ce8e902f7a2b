/**
 * Opens the run's Allure HTML report in headless Chromium (Debian's /usr/bin/chromium, driven by
 * playwright-core), served over HTTP from 127.0.0.1, and checks what a person would look at:
 * - the overview shows the run's test count (summary.json's);
 * - when the run failed: a failing test, its error and category, and its failed step with the
 *   exchange (curl line and answer) attached, and the clause's text;
 * - index.html opened from disk (file://) shows the overview too.
 * Screenshots go to the reports folder. Exit code 0 when every check holds, 1 otherwise.
 * For people and release checks (CI has no Chromium):
 *   apt-get update && apt-get install -y chromium
 *   npx tsx scripts/check-allure-report.ts [--reports reports] [--test <part of a test name>]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Page, chromium } from 'playwright-core';
import { serveReport } from '../src/cli/commands/report.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const { values } = parseArgs({ options: { reports: { type: 'string', default: 'reports' }, test: { type: 'string' } } });
const reports = resolve(values.reports!);
const reportDir = join(reports, 'allure-report');
const summary = JSON.parse(readFileSync(join(reports, 'summary.json'), 'utf8')) as {
  verdict: string;
  counts: { tests: number; failed: number; warnings: number };
  findings: { severity: string; clause: string }[];
};

const problems: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) problems.push(what);
};

if (!existsSync(join(reportDir, 'index.html'))) {
  console.error(`no report at ${reportDir}: run \`npm run conformance\` first`);
  process.exit(1);
}
if (!existsSync(CHROMIUM)) {
  console.error(`no ${CHROMIUM}: apt-get update && apt-get install -y chromium`);
  process.exit(1);
}

async function failingTest(page: Page): Promise<void> {
  await page.locator('[data-testid="tab-failed"]').click();
  if (values.test) await page.locator('[data-testid="search-input"]').fill(values.test);
  let leaves = page.locator('[data-testid="tree-leaf"]').filter({ has: page.locator('[data-testid="tree-leaf-status-failed"]') });
  if (values.test) leaves = leaves.filter({ hasText: values.test });
  const leaf = leaves.first();
  await leaf.waitFor({ timeout: 15_000 });
  const title = (await leaf.locator('[data-testid="tree-leaf-title"]').innerText()).trim();
  await leaf.click();
  await page.locator('[data-testid="test-result-status-failed"]').waitFor({ timeout: 15_000 });
  check(true, `failing test opened: ${title}`);
  const error = (await page.locator('[data-testid="test-result-error-message"]').first().innerText()).trim();
  check(/\(\w+#[\w-]+\)/.test(error), `its error names a clause: ${error.split('\n')[0]}`);
  const body = await page.innerText('body');
  check(
    /Category: (Spec failures|Profile rule failures|Toolkit errors)/.test(body),
    'it is in a category of its own (spec failure, profile rule failure or toolkit error)',
  );
  await page.screenshot({ path: join(reports, 'allure-failing-test.png') });

  const steps = page.locator('[data-testid="test-result-steps-root"] > [data-testid="test-result-step"]');
  const count = await steps.count();
  check(count > 0, `it has steps (${count})`);
  const failed = steps
    .filter({ has: page.locator(':scope > [data-testid="test-result-step-header"] [data-testid="tree-leaf-status-failed"]') })
    .first();
  check((await failed.count()) > 0, 'one of its steps failed');
  if ((await failed.count()) === 0) return;
  const header = failed.locator(':scope > [data-testid="test-result-step-header"]');
  const stepTitle = (await header.locator('[data-testid="test-result-step-title"]').innerText()).trim();
  // A failed step may open by itself: open it only when it is closed.
  if ((await failed.locator(':scope > [data-testid="test-result-step-content"]').count()) === 0) await header.click();
  const attachments = failed.locator('[data-testid="test-result-attachment"]');
  await attachments.first().waitFor({ timeout: 10_000 });
  const names = (await failed.locator('[data-testid="test-result-attachment-header"]').allInnerTexts()).map(
    (s) =>
      s
        .trim()
        .split('\n')
        .map((l) => l.trim())
        .find((l) => /^[a-z]+$/.test(l)) ?? s.trim(),
  );
  check(
    names.some((x) => x === 'exchange' || x === 'delivery'),
    `failed step "${stepTitle}" has its exchange (curl line and answer) attached (${names.join(', ')})`,
  );
  // Open the exchange.
  for (const n of ['exchange', 'delivery']) {
    const h = failed.locator('[data-testid="test-result-attachment-header"]').filter({ hasText: n }).first();
    if (await h.count()) await h.click();
  }
  await page.waitForTimeout(800);
  const curl = await failed.innerText();
  check(curl.includes('curl -sS'), 'the curl line shows in the step');
  check(
    !/Bearer (?!\$PAYCONNECT_TOKEN|\[REDACTED\])[A-Za-z0-9._~+/-]{8,}/.test(curl),
    'no bearer value in the step (the curl line uses $PAYCONNECT_TOKEN)',
  );
  // A tall window, the step at its top: the finding, the response and the curl line in one picture.
  await page.setViewportSize({ width: 1400, height: 2000 });
  await header.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(reports, 'allure-failing-step.png') });
  await clauseLink(page);
}

/** The failing test carries its clause's text (Allure 3 shows relative links as names only). */
async function clauseLink(page: Page): Promise<void> {
  const header = page.locator('[data-testid="test-result-attachment-header"]').filter({ hasText: 'clause ' }).first();
  check((await header.count()) > 0, 'the failing test has its clause text attached');
  if ((await header.count()) === 0) return;
  const name =
    (await header.innerText())
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.startsWith('clause ')) ?? '';
  await header.click();
  await page.waitForTimeout(800);
  const attachment = page.locator('[data-testid="test-result-attachment"]').filter({ has: header }).first();
  const text = await attachment.innerText();
  check(
    /\.md — #{1,6} \S/.test(text),
    `it shows the clause's own words ("${name}": ${
      text
        .split('\n')
        .find((l) => l.includes('.md — '))
        ?.trim() ?? 'nothing'
    })`,
  );
  await header.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: join(reports, 'allure-clause.png') });
}

const server = await serveReport(reportDir);
const profile = mkdtempSync(join(tmpdir(), 'pcc-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ARGS,
  viewport: { width: 1400, height: 1000 },
});
const external: string[] = [];
try {
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(server.url) && !url.startsWith('data:') && !url.startsWith('blob:')) external.push(url);
  });
  await page.goto(server.url);
  const total = page.locator('[data-testid="metadata-item-total"]').first();
  await total.waitFor({ timeout: 30_000 });
  const shown = (await total.innerText()).replace(/\s+/g, ' ').trim();
  check(
    new RegExp(`\\b${summary.counts.tests}\\b`).test(shown),
    `overview shows the run's test count: "${shown}" (summary.json: ${summary.counts.tests})`,
  );
  const shot = join(reports, `allure-overview-${summary.verdict}.png`);
  await page.screenshot({ path: shot });
  console.log(`screenshot: ${shot}`);
  if (summary.counts.failed > 0 || summary.counts.warnings > 0) {
    await page.locator('[data-testid="nav-tab-categories"]').click();
    await page.waitForTimeout(1000);
    const text = await page.innerText('body');
    const expected = [
      ...(summary.findings.some((f) => f.severity === 'failure' && f.clause.startsWith('spec#')) ? ['Spec failures'] : []),
      ...(summary.counts.warnings > 0 && summary.counts.failed === 0 ? ['Profile warnings'] : []),
    ];
    check(
      expected.every((c) => text.includes(c)),
      `the categories tab lists ${expected.join(', ') || 'the categories'}`,
    );
    await page.screenshot({ path: join(reports, 'allure-categories.png') });
    await page.locator('[data-testid="nav-tab-results"]').click();
  }
  if (summary.counts.failed > 0) {
    await failingTest(page);
    console.log(`screenshots: ${join(reports, 'allure-failing-test.png')}, ${join(reports, 'allure-failing-step.png')}`);
  }
  check(external.length === 0, `no request left 127.0.0.1${external.length ? `: ${external.join(', ')}` : ''}`);
  // The single-file report opens from disk too (no server).
  const fromDisk = await context.newPage();
  await fromDisk.goto(`file://${join(reportDir, 'index.html')}`);
  const diskTotal = fromDisk.locator('[data-testid="metadata-item-total"]').first();
  const opened = await diskTotal.waitFor({ timeout: 30_000 }).then(
    () => true,
    () => false,
  );
  check(
    opened && new RegExp(`\\b${summary.counts.tests}\\b`).test(await diskTotal.innerText()),
    'index.html opened from disk (file://) shows the overview',
  );
  await fromDisk.close();
} catch (e) {
  problems.push(String(e));
  console.error(e);
} finally {
  await context.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(problems.length === 0 ? 'the Allure report checks out' : `${problems.length} problem(s)`);
process.exitCode = problems.length === 0 ? 0 : 1;
