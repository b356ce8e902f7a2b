/**
 * check-receiver writes transcript.jsonl.gz beside its reports: a header naming the command, each
 * delivery sent (raw bytes' digest, the signature and whether it was genuine) with its answer, each
 * rule's verdict as a check line; never the webhook key. `rejudge` of the folder judges every rule
 * again from it, with no network, to the same verdict and findings.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { RULE_IDS } from '../src/receiver-check/index.ts';
import { checkReceiverCommand } from '../src/cli/commands/check-receiver.ts';
import { type DeliveryEvent, type TranscriptLine, TRANSCRIPT_FILE } from '../src/transcript/index.ts';
import { rejudgeReports as rejudge } from '../src/engine/command-rejudge.ts';
import { type ReceiverFlaw, startTestReceiver } from './support/receivers/webhook-receiver.ts';

const SECRET = 'whsec-transcript-4b8d1f0a9c3e7e2d-never-written';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function check(flaw: ReceiverFlaw, args: string[] = [], opts: { slowMs?: number } = {}) {
  const reports = join(mkdtempSync(join(tmpdir(), 'pcc-receiver-transcript-')), 'reports');
  dirs.push(join(reports, '..'));
  const receiver = await startTestReceiver(SECRET, flaw, opts);
  try {
    const code = await checkReceiverCommand(
      ['--url', receiver.url, '--no-html', '--reports', reports, ...args],
      { PAYCONNECT_WEBHOOK_SECRET: SECRET },
      { stdout: () => undefined, stderr: () => undefined, interactive: false },
    );
    const raw = gunzipSync(readFileSync(join(reports, TRANSCRIPT_FILE))).toString('utf8');
    const lines = raw
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as TranscriptLine);
    const summary = JSON.parse(readFileSync(join(reports, 'summary.json'), 'utf8')) as {
      verdict: string;
      findings: { test: string; check: string; severity: string; message: string }[];
    };
    return { code, reports, raw, lines, summary };
  } finally {
    await receiver.close();
  }
}

const keys = (fs: { test: string; check: string; severity: string; message: string }[]) =>
  fs.map((f) => `${f.test}|${f.check}|${f.severity}|${f.message}`).sort();

describe('check-receiver transcript', () => {
  it('records every delivery and rule verdict of a correct receiver, no key, and re-judges to a pass', async () => {
    const r = await check('none');
    expect(r.code).toBe(0);
    expect(r.raw).not.toContain(SECRET);
    const [header, ...events] = r.lines;
    expect(header).toMatchObject({
      kind: 'header',
      command: 'check-receiver',
      settings: { profile: 'public', strict: false },
      info: { tool: { name: expect.any(String) }, contract: { sha256: expect.any(String) } },
    });
    const deliveries = events.filter((e): e is DeliveryEvent => e.kind === 'delivery');
    expect(deliveries.length).toBeGreaterThan(10);
    const verdicts = new Set(deliveries.map((d) => d.sent!.signatureVerdict));
    expect([...verdicts].sort()).toEqual(['absent', 'forged', 'genuine']);
    for (const d of deliveries) expect(d.delivery.bodySha256).toMatch(/^[0-9a-f]{64}$/);
    // The oversized body is kept as its digest and first bytes.
    expect(deliveries.some((d) => typeof d.delivery.rawBody === 'object' && d.delivery.bodyLength > 1024 * 1024)).toBe(true);
    expect(
      events
        .filter((e) => e.kind === 'check')
        .map((e) => (e as { id: string }).id)
        .sort(),
    ).toEqual([...RULE_IDS].sort());
    expect(events.filter((e) => e.kind === 'test')).toHaveLength(RULE_IDS.length);
    const again = await rejudge(r.reports);
    expect(again.summary.verdict).toBe('pass');
    expect(again.diff).toMatchObject({ added: [], gone: [], changed: [] });
    expect(again.notRejudgeable).toEqual([]);
    expect(again.exitCode).toBe(0);
  });

  it('re-judges a broken receiver to the same failure and findings from the deliveries recorded', async () => {
    const r = await check('accepts-wrong-signature');
    expect(r.code).toBe(1);
    expect(r.raw).not.toContain(SECRET);
    const again = await rejudge(r.reports);
    expect(again.summary.verdict).toBe(r.summary.verdict);
    expect(keys(again.summary.findings)).toEqual(keys(r.summary.findings));
    expect(again.summary.findings.map((f) => f.check)).toContain('receiver.wrong-signature-refused');
    expect(again.diff).toMatchObject({ added: [], gone: [], changed: [] });
    expect(again.notRejudgeable).toEqual([]);
    expect(again.exitCode).toBe(1);
  });

  it('a late answer: the timing rule is judged again from the recorded times, to the same warning', async () => {
    const r = await check('slow', ['--timeout', '250ms'], { slowMs: 700 });
    expect(r.code).toBe(0);
    expect(r.summary.findings.map((f) => f.check)).toEqual(['receiver.answered-in-time']);
    const again = await rejudge(r.reports);
    expect(keys(again.summary.findings)).toEqual(keys(r.summary.findings));
    expect(again.notRejudgeable).toEqual([]);
    expect(again.exitCode).toBe(0);
  }, 30_000);

  it('a receiver given up as too slow: the rules it kept from being checked are listed as not re-judgeable, the verdict kept', async () => {
    const timers = new Set<NodeJS.Timeout>();
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const t = setTimeout(() => res.writeHead(200).end('{}'), 700);
        timers.add(t);
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const reports = join(mkdtempSync(join(tmpdir(), 'pcc-receiver-transcript-')), 'reports');
    dirs.push(join(reports, '..'));
    try {
      const code = await checkReceiverCommand(
        [
          '--url',
          `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
          '--timeout',
          '200ms',
          '--no-html',
          '--reports',
          reports,
        ],
        { PAYCONNECT_WEBHOOK_SECRET: SECRET },
        { stdout: () => undefined, stderr: () => undefined, interactive: false },
      );
      expect(code).toBe(1);
    } finally {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    }
    const summary = JSON.parse(readFileSync(join(reports, 'summary.json'), 'utf8')) as {
      verdict: string;
      findings: { test: string; check: string; severity: string; message: string }[];
    };
    const again = await rejudge(reports);
    expect(again.summary.verdict).toBe('fail');
    expect(keys(again.summary.findings)).toEqual(keys(summary.findings));
    expect(again.diff).toMatchObject({ added: [], gone: [], changed: [] });
    // The root (answered-in-time, given up) is judged again; the rules it blocked are not re-judgeable.
    expect(again.notRejudgeable.map((n) => n.check).sort()).toEqual(RULE_IDS.filter((id) => id !== 'receiver.answered-in-time').sort());
    for (const n of again.notRejudgeable) expect(n.why).toMatch(/live run/);
    expect(again.summary.counts).toMatchObject(JSON.parse(readFileSync(join(reports, 'summary.json'), 'utf8')).counts);
  }, 30_000);
});
