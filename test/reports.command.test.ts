/** `payconnect-conformance report`: regenerate the Allure HTML from allure-results and serve it on loopback. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportCommand } from '../src/cli/commands/report.ts';

const dir = mkdtempSync(join(tmpdir(), 'pcc-report-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function resultsDir(): string {
  const reports = join(dir, 'reports');
  const results = join(reports, 'allure-results');
  mkdirSync(results, { recursive: true });
  writeFileSync(
    join(results, '00000000-0000-0000-0000-000000000001-result.json'),
    JSON.stringify({
      uuid: '00000000-0000-0000-0000-000000000001',
      name: 'generate and converge: approve',
      fullName: 'suites/payment/payment.suite.ts#payment generate and converge: approve',
      status: 'passed',
      stage: 'finished',
      start: 1,
      stop: 2,
      labels: [{ name: 'epic', value: 'payment' }],
      steps: [],
      attachments: [],
      parameters: [],
    }),
  );
  return reports;
}

describe('report command', () => {
  it('regenerates the report, serves it on 127.0.0.1 until stopped, and prints the address', async () => {
    const reports = resultsDir();
    const out: string[] = [];
    const stop = new AbortController();
    const done = reportCommand(
      ['--reports', reports, '--port', '0'],
      {},
      { stdout: (s) => out.push(s), stderr: (s) => out.push(s), interactive: false },
      { signal: stop.signal, cwd: dir },
    );
    let url: string | undefined;
    for (let i = 0; i < 600 && !url; i++) {
      url = /serving the report at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out.join(''))?.[1];
      if (!url) await new Promise((r) => setTimeout(r, 100));
    }
    expect(url).toBeDefined();
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).not.toContain('googletagmanager');
    expect((await fetch(new URL('/%2e%2e/%2e%2e/etc/passwd', url))).status).toBe(404);
    stop.abort();
    expect(await done).toBe(0);
    await expect(fetch(url!)).rejects.toThrow();
    expect(readFileSync(join(reports, 'allure-report', 'index.html'), 'utf8')).toContain('<html');
  });

  it('only regenerates with --no-serve, and says what to do without results', async () => {
    const reports = resultsDir();
    const out: string[] = [];
    expect(
      await reportCommand(
        ['--reports', reports, '--no-serve'],
        {},
        { stdout: (s) => out.push(s), stderr: () => {}, interactive: false },
        { cwd: dir },
      ),
    ).toBe(0);
    expect(out.join('')).toContain(join(reports, 'allure-report', 'index.html'));
    await expect(
      reportCommand(['--reports', join(dir, 'nothing-here')], {}, { stdout: () => {}, stderr: () => {}, interactive: false }, { cwd: dir }),
    ).rejects.toMatchObject({ code: 'PCC_USAGE' });
    await expect(
      reportCommand(['--port', 'x'], {}, { stdout: () => {}, stderr: () => {}, interactive: false }, { cwd: dir }),
    ).rejects.toMatchObject({ code: 'PCC_USAGE' });
  });
});
