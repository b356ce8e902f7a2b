/**
 * Signed evidence as a vendor checks it: a signed run with a simulator fault verifies with the signer's
 * key and with no other; each edit of the package (summary.json, a test dropped from the transcript, a
 * transcript line changed) is refused with its reason; and neither the signing key nor any secret of
 * the run is in the certificate. Merged signed shards, which verify as one package: test/rejudge.test.ts,
 * beside their transcript's re-judging.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import { type CliResult, runCli, tempDir } from './support/run-cli.ts';
import { signingKeys } from './support/signing.ts';

const keys = signingKeys();
const verify = keys.verify;
const copy = (from: string) => {
  const to = tempDir('pcc-signed-');
  for (const f of readdirSync(from)) execFileSync('cp', ['-r', join(from, f), to]);
  return to;
};
const lines = (dir: string) =>
  gunzipSync(readFileSync(join(dir, 'transcript.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
const writeLines = (dir: string, l: string[]) => writeFileSync(join(dir, 'transcript.jsonl.gz'), gzipSync(`${l.join('\n')}\n`));

describe('a signed run', () => {
  let run: CliResult;
  beforeAll(async () => {
    keys.make('other');
    run = await runCli(['run', '--no-html', '--seed', '21', '--sim-fault', 'slip.total-mismatch', '--sign-key', keys.make('signer')]);
  }, 180_000);

  test('fails on the fault, and writes the certificate and the transcript', () => {
    expect(run.code, run.stderr).toBe(1);
    const names = readdirSync(run.reportsDir);
    expect(names).toEqual(expect.arrayContaining(['certificate.intoto.json', 'transcript.jsonl.gz', 'summary.json']));
    const cert = readFileSync(join(run.reportsDir, 'certificate.intoto.json'), 'utf8');
    // No key material: the signing key's PEM body is nowhere in the reports.
    const body = readFileSync(keys.pem('signer'), 'utf8').split('\n')[1]!;
    expect(cert).not.toContain(body);
    expect(readFileSync(join(run.reportsDir, 'certification.html'), 'utf8')).toMatch(
      /Signed<\/th><td>by the Ed25519 key [0-9a-f]{64}[^<]*verify-certificate/,
    );
  });

  test("verifies with the signer's key (exit 0), not with another (exit 1)", async () => {
    const ok = await verify(run.reportsDir, 'signer');
    expect(ok.code, `${ok.stdout}${ok.stderr}`).toBe(0);
    expect(ok.stdout).toMatch(/^VALID: .* \(FAILED; \d+ passed, \d+ warned, [1-9]\d* failed/);
    const wrong = await verify(run.reportsDir, 'other');
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(/the signature does not verify with the public key given/);
  }, 60_000);

  test('each edit is refused with its reason', async () => {
    const summary = copy(run.reportsDir);
    const s = JSON.parse(readFileSync(join(summary, 'summary.json'), 'utf8')) as { verdict: string };
    s.verdict = 'pass';
    writeFileSync(join(summary, 'summary.json'), JSON.stringify(s, null, 2));
    const a = await verify(summary, 'signer');
    expect(a.code).toBe(1);
    expect(a.stdout).toMatch(/summary\.json was changed after signing/);
    expect(a.stdout).toMatch(/summary\.json's verdict \(pass\) is not the signed result \(FAILED\)/);

    const dropped = copy(run.reportsDir);
    const failing = (
      JSON.parse(
        lines(dropped).find((l) => l.includes('"kind":"test"') && l.includes('"state":"failed"') && l.includes('total-amount'))!,
      ) as { test: string }
    ).test;
    writeLines(
      dropped,
      lines(dropped).filter((l) => (JSON.parse(l) as { test?: string }).test !== failing),
    );
    const b = await verify(dropped, 'signer');
    expect(b.code).toBe(1);
    expect(b.stdout).toMatch(/transcript\.jsonl\.gz was changed after signing/);
    expect(b.stdout).toMatch(/re-judging the transcript gives .*(passes now|not the signed result)/);

    const edited = copy(run.reportsDir);
    const l = lines(edited);
    const i = l.findIndex((x) => x.includes('"kind":"exchange"') && x.includes('"status":200'));
    l[i] = l[i]!.replace('"status":200', '"status":201');
    writeLines(edited, l);
    const c = await verify(edited, 'signer');
    expect(c.code).toBe(1);
    expect(c.stdout).toMatch(/transcript\.jsonl\.gz was changed after signing/);
  }, 120_000);

  test('an edit of the certification (HTML or Markdown) or of junit.xml is refused, naming the file', async () => {
    for (const [file, from, to] of [
      ['certification.html', 'NOT CERTIFIED', 'CERTIFIED'],
      ['certification.md', 'NOT CERTIFIED', 'CERTIFIED'],
      ['junit.xml', 'failures="', 'failures="0" x="'],
    ] as const) {
      const dir = copy(run.reportsDir);
      const text = readFileSync(join(dir, file), 'utf8');
      expect(text, file).toContain(from);
      writeFileSync(join(dir, file), text.replaceAll(from, to));
      const r = await verify(dir, 'signer');
      expect(r.code, `${file}: ${r.stdout}`).toBe(1);
      expect(r.stdout).toMatch(/^INVALID: /);
      expect(r.stdout).toContain(`${file} was changed after signing`);
    }
  }, 120_000);
});

describe('a signed run of part of the suites', () => {
  test('says at once that the package will be partial, and verifies as VALID, PARTIAL (exit 0), not INVALID', async () => {
    const run = await runCli(['run', '--no-html', '--suite', 'config', '--sign-key', keys.make('partial')]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('signing: the package will be PARTIAL (--suite config)');
    const r = await verify(run.reportsDir, 'partial');
    expect(r.code, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(
      /^VALID, PARTIAL: .* but not the complete set of tests: \d+ tests of the complete set were not run \(suites config; first: /,
    );
    expect(readFileSync(join(run.reportsDir, 'certification.md'), 'utf8')).toContain('NOT CERTIFIED');
  }, 180_000);
});
