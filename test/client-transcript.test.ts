/**
 * certify-client writes transcript.jsonl.gz beside its reports: a header naming the command, the
 * recording it judged (the client's requests and the simulator's answers, the deliveries), each
 * rule's verdict as a check line; no secret the simulator issued. `rejudge` of the folder judges every
 * rule again on the recording, to the same verdict and findings; the command's exit is listed as not
 * re-judgeable.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_RULES } from '../src/client-check/index.ts';
import { certifyClientCommand } from '../src/cli/commands/certify-client.ts';
import type { SimulatorHandle } from '../src/simulator/index.ts';
import { type TranscriptLine, TRANSCRIPT_FILE } from '../src/transcript/index.ts';
import { rejudgeReports as rejudge } from '../src/engine/command-rejudge.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const node = (file: string) => [process.execPath, '--import', 'tsx', file];
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function certify(flags: string[], command: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'pcc-client-transcript-'));
  dirs.push(dir);
  let sim: SimulatorHandle | undefined;
  const code = await certifyClientCommand(
    [...flags, '--no-html', '--reports', dir, '--', ...command],
    { ...process.env },
    { stdout: () => undefined, stderr: () => undefined, interactive: false },
    { onSimulator: (s) => (sim = s) },
  );
  const raw = gunzipSync(readFileSync(join(dir, TRANSCRIPT_FILE))).toString('utf8');
  const lines = raw
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as TranscriptLine);
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
    verdict: string;
    findings: { test: string; check: string; severity: string; message: string }[];
  };
  return { code, dir, raw, lines, summary, secrets: sim!.issuedSecrets() };
}

const keys = (fs: { test: string; check: string; severity: string; message: string }[]) =>
  fs.map((f) => `${f.test}|${f.check}|${f.severity}|${f.message}`).sort();

describe('certify-client transcript', () => {
  it("records the reference client's recording and every rule, no issued secret, and re-judges to the same verdict", async () => {
    const r = await certify([], node(join(ROOT, 'examples/pos-client/pos-client.ts')));
    expect(r.code).toBe(0);
    expect(r.secrets.length).toBeGreaterThan(0);
    for (const s of r.secrets) expect(r.raw.includes(s)).toBe(false);
    const [header, ...events] = r.lines;
    expect(header).toMatchObject({
      kind: 'header',
      command: 'certify-client',
      settings: { strict: false },
      info: { tool: { name: expect.any(String) }, contract: { sha256: expect.any(String) } },
    });
    const recording = events.filter((e) => e.kind === 'recording');
    expect(recording.some((e) => (e as { entry: { type: string } }).entry.type === 'request')).toBe(true);
    expect(recording.some((e) => (e as { entry: { type: string } }).entry.type === 'delivery')).toBe(true);
    const ids = events.filter((e) => e.kind === 'check').map((e) => (e as { id: string }).id);
    for (const rule of CLIENT_RULES) expect(ids).toContain(rule.id);
    const again = await rejudge(r.dir);
    expect(again.summary.verdict).toBe(r.summary.verdict);
    expect(keys(again.summary.findings)).toEqual(keys(r.summary.findings));
    expect(again.diff).toMatchObject({ added: [], gone: [], changed: [] });
    // Only the command's exit was judged live.
    expect(again.notRejudgeable.map((n) => n.check)).toEqual(['certify-client.command-completed']);
    expect(again.exitCode).toBe(0);
  }, 60_000);

  it("a broken client: its rule's findings come back from the recording alone", async () => {
    const r = await certify([], node(join(ROOT, 'examples/pos-client/broken', 'no-integrator-header.ts')));
    expect(r.code).toBe(1);
    for (const s of r.secrets) expect(r.raw.includes(s)).toBe(false);
    expect(r.summary.findings.length).toBeGreaterThan(0);
    const again = await rejudge(r.dir);
    expect(again.summary.verdict).toBe('fail');
    expect(keys(again.summary.findings)).toEqual(keys(r.summary.findings));
    expect(again.diff).toMatchObject({ added: [], gone: [], changed: [] });
    expect(again.exitCode).toBe(1);
  }, 60_000);
});
