/**
 * The transcript and `rejudge`: a run's reports hold transcript.jsonl.gz, and re-judging it offline
 * (no socket may open) gives the run's verdict and findings; an edited transcript line changes the
 * result; the transcript that merge-reports makes of two signed shards re-judges to the merged
 * findings, and their merged certificate verifies as one package (one shard's alone is incomplete).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type Summary, runCli, tempDir } from './support/run-cli.ts';
import { signingKeys } from './support/signing.ts';

/**
 * A preload that makes any TCP connection or listening port fail the process loudly (a local pipe, such
 * as the TypeScript loader's own, is let through).
 */
function noNetwork(): string {
  const file = join(tempDir('pcc-no-net-'), 'no-net.mjs');
  writeFileSync(
    file,
    [
      "import net from 'node:net';",
      "const pipe = (args) => { const a = Array.isArray(args[0]) ? args[0][0] : args[0]; return (typeof a === 'object' && a !== null && typeof a.path === 'string') || (typeof a === 'string' && !/^\\d+$/.test(a)); };",
      'const guard = (what, orig) => function (...args) { if (pipe(args)) return orig.apply(this, args); process.stderr.write(`NETWORK USED: ${what}\\n`); process.exit(3); };',
      "net.Socket.prototype.connect = guard('connect', net.Socket.prototype.connect);",
      "net.Server.prototype.listen = guard('listen', net.Server.prototype.listen);",
    ].join('\n'),
  );
  return file;
}

const summaryOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
const keys = (s: Summary) => s.findings.map((f) => [f.test, f.check, f.severity, f.clause, f.message].join(' | ')).sort();

it('the no-network preload refuses a TCP connection (so the rejudge runs below could not use one)', () => {
  const r = spawnSync(process.execPath, ['--import', noNetwork(), '-e', "require('node:net').connect(9, '127.0.0.1')"], {
    encoding: 'utf8',
  });
  expect(r.stderr).toContain('NETWORK USED: connect');
  expect(r.status).toBe(3);
});

/** `rejudge DIR --reports OUT` with no network at all. */
async function rejudge(dir: string) {
  const out = tempDir('pcc-rejudged-');
  const r = await runCli(['rejudge', dir, '--reports', out, '--no-html'], { env: { NODE_OPTIONS: `--import ${noNetwork()}` } });
  expect(r.stderr).not.toContain('NETWORK USED');
  return { ...r, out, summary: summaryOf(out) };
}

/** The transcript's lines, and writing them back. */
const linesOf = (dir: string) =>
  gunzipSync(readFileSync(join(dir, 'transcript.jsonl.gz')))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const writeLines = (dir: string, lines: unknown[]) =>
  writeFileSync(join(dir, 'transcript.jsonl.gz'), gzipSync(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`));

describe('transcript and rejudge', () => {
  it('a run with a simulator fault re-judges offline to the same verdict and findings; an edited response body changes them', async () => {
    const run = await runCli(['run', '--no-html', '--suite', 'payment', '--sim-fault', 'slip.total-mismatch', '--seed', '5']);
    expect(run.code, run.stderr).toBe(1);
    const lines = linesOf(run.reportsDir);
    expect(lines[0]).toMatchObject({ kind: 'header', info: { faults: ['slip.total-mismatch'] } });
    for (const kind of ['exchange', 'check', 'delivery', 'convergence', 'test'])
      expect(
        lines.some((l) => l.kind === kind),
        kind,
      ).toBe(true);
    expect(lines.every((l) => typeof l.test === 'string' && typeof l.time === 'string')).toBe(true);

    const again = await rejudge(run.reportsDir);
    expect(again.code, again.stderr).toBe(1);
    expect(again.summary.verdict).toBe('fail');
    expect(run.summary!.findings.length).toBeGreaterThan(0);
    expect(keys(again.summary)).toEqual(keys(run.summary!));
    expect(again.summary.counts).toEqual(run.summary!.counts);
    expect(again.stdout).toContain('differences: none');

    // Every slip of this fault breaks the arithmetic, so the run files it once (the first test in time)
    // and its follow-up on the slip (print-slip.agrees-with-status) once: possibly in another test,
    // whose follow-up then rests on a root seen again there. The recorded dispositions as such a run
    // would have them: the root filed by a second test, the follow-up still filed by the first.
    type Auto = { check: string; findings: { disposition: string; check: string; severity: string; clause: string; message: string }[] };
    const autoOf = (l: Record<string, unknown>) =>
      (l.auto as Auto[] | undefined)?.find((a) => a.check === 'invariant.total-amount' && a.findings.length > 0);
    const rootTest = lines.find((l) => l.kind === 'exchange' && autoOf(l)?.findings[0]?.disposition === 'filed')?.test as string;
    const other = lines.find((l) => l.kind === 'exchange' && l.test !== rootTest && autoOf(l)?.findings[0]?.disposition === 'repeat')
      ?.test as string;
    expect(rootTest && other).toBeTruthy();
    const otherRoot = lines.map((l) => (l.kind === 'exchange' && l.test === other ? autoOf(l) : undefined)).find((a) => a)!.findings[0]!;
    const swapped = lines.map((l) => {
      // The tests' records as the reports hold them: the root among the second test's findings, not the first's.
      if (l.kind === 'test' && (l.test === rootTest || l.test === other)) {
        const rec = l.record as { findings: { check: string }[] };
        const { disposition: _d, ...root } = otherRoot;
        const findings = rec.findings.filter((f) => f.check !== 'invariant.total-amount');
        return { ...l, record: { ...rec, findings: l.test === other ? [...findings, { ...root, test: other }] : findings } };
      }
      const a = l.kind === 'exchange' && (l.test === rootTest || l.test === other) ? autoOf(l) : undefined;
      if (!a) return l;
      const disposition = l.test === rootTest ? 'repeat' : 'filed';
      return {
        ...l,
        auto: (l.auto as Auto[]).map((x) => (x === a ? { ...x, findings: x.findings.map((f) => ({ ...f, disposition })) } : x)),
      };
    });
    writeLines(run.reportsDir, swapped);
    const interleaved = await rejudge(run.reportsDir);
    expect(interleaved.summary.counts, interleaved.stdout).toEqual(run.summary!.counts);
    const followUp = interleaved.summary.findings.find((f) => f.check === 'print-slip.agrees-with-status');
    expect(followUp?.test).toBe(rootTest);
    expect((followUp as { followsFrom?: { test: string } } | undefined)?.followsFrom?.test).toBe(other);

    // A status record's body made to hold a status outside the contract's enum: a check now fails on it.
    const edited = lines.map((l) => ({ ...l }));
    const i = edited.findIndex(
      (l) =>
        l.kind === 'exchange' &&
        (l.exchange as { operationId?: string }).operationId === 'getTransactionStatus' &&
        typeof (l.exchange as { response?: { body?: { status?: unknown } } }).response?.body?.status === 'string',
    );
    expect(i).toBeGreaterThan(0);
    const ex = structuredClone(edited[i]!.exchange) as { response: { body: { status: string }; rawBody: string } };
    ex.response.body.status = 'NOT_A_STATUS';
    ex.response.rawBody = JSON.stringify(ex.response.body);
    edited[i] = { ...edited[i], exchange: ex };
    writeLines(run.reportsDir, edited);
    const changed = await rejudge(run.reportsDir);
    const added = keys(changed.summary).filter((k) => !keys(run.summary!).includes(k));
    expect(added.length, changed.stdout).toBeGreaterThan(0);
    expect(added.join('\n')).toMatch(/getTransactionStatus 200: .*\/status must be equal to one of the allowed values/);
    expect(changed.stdout).toMatch(/differences: [1-9]\d* new/);
  }, 240_000);

  it('merge-reports of two clean signed shards: one transcript that re-judges to the merged findings with no difference, one package that verifies', async () => {
    const signer = signingKeys();
    const sign = ['--sign-key', signer.make('merger')];
    const [one, two] = await Promise.all([
      runCli(['run', '--no-html', '--seed', '7', '--shard', '1/2', ...sign], { timeoutMs: 300_000 }),
      runCli(['run', '--no-html', '--seed', '7', '--shard', '2/2', ...sign], { timeoutMs: 300_000 }),
    ]);
    for (const r of [one, two]) expect(r.code, r.stderr).toBe(0);
    const out = tempDir('pcc-merged-');
    const merged = await runCli(['merge-reports', one.reportsDir, two.reportsDir, '--reports', out, '--no-html', ...sign]);
    expect(merged.code, merged.stderr).toBe(0);
    const lines = linesOf(out);
    expect(lines[0]!.kind).toBe('header');
    expect(lines.filter((l) => l.kind === 'header')).toHaveLength(1);
    expect(new Set(lines.slice(1).map((l) => l.shard))).toEqual(new Set([1, 2]));
    const mergedSummary = summaryOf(out);
    const again = await rejudge(out);
    expect(again.code, again.stderr).toBe(0);
    expect(again.summary.verdict).toBe('pass');
    expect(keys(again.summary)).toEqual(keys(mergedSummary));
    expect(again.summary.counts).toEqual(mergedSummary.counts);
    expect(again.stdout).toContain('differences: none');

    // Signed at the merge: the package verifies as one, whole; a shard alone is authentic but partial.
    const v = await signer.verify(out, 'merger');
    expect(v.code, v.stdout).toBe(0);
    expect(v.stdout).toMatch(/^VALID: /);
    const alone = await signer.verify(one.reportsDir, 'merger');
    expect(alone.code, alone.stdout).toBe(0);
    expect(alone.stdout).toMatch(
      /^VALID, PARTIAL: .*tests? of the complete set (was|were) not run \(a run restricted by --grep, or one shard/,
    );
  }, 600_000);
});
