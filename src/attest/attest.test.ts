import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunInfo, RunRecord, Summary, TestRecord } from '../report/index.ts';
import { CERTIFICATE_FILE, SUBJECTS, loadPublicKey, loadSigningKey, signReports, verifyCertificate, type Rejudged } from './index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONTRACT = 'contracts/pay-connect.openapi.yaml';
const test = (name: string, over: Partial<TestRecord> = {}) =>
  ({
    name,
    capability: name.split(' > ')[0],
    clause: '',
    file: 'f',
    state: 'passed',
    durationMs: 1,
    findings: [],
    errors: [],
    parameters: {},
    exchanges: [],
    exchangeCount: 0,
    ...over,
  }) as TestRecord;
const TESTS = ['config > a', 'config > b', 'payment > c'];
const failing = { check: 'invariant.total-amount', severity: 'failure' as const, clause: 'spec#transaction-print-slip', message: 'total' };

function signedFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'pcc-attest-'));
  const keyDir = mkdtempSync(join(tmpdir(), 'pcc-attest-keys-'));
  const keys = generateKeyPairSync('ed25519');
  writeFileSync(join(keyDir, 'key.pem'), keys.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(join(keyDir, 'key.pub'), keys.publicKey.export({ type: 'spki', format: 'pem' }));
  const record: RunRecord = {
    tests: [
      test(TESTS[0]!),
      test(TESTS[1]!, { findings: [{ ...failing, severity: 'warning' }] }),
      test(TESTS[2]!, { state: 'failed', findings: [failing] }),
    ],
    unhandled: [],
    startedAt: '',
    durationMs: 1,
  };
  const summary = {
    verdict: 'fail',
    counts: { tests: 3, passed: 2, failed: 1, skipped: 0, failures: 1, warnings: 1 },
    findings: [],
  } as unknown as Summary;
  writeFileSync(join(dir, SUBJECTS.summary), JSON.stringify(summary));
  writeFileSync(join(dir, SUBJECTS.transcript), 'line 1\nline 2\n');
  writeFileSync(join(dir, 'certification.html'), '<h1>NOT CERTIFIED</h1>');
  mkdirSync(join(dir, 'allure-results'));
  writeFileSync(join(dir, 'allure-results', 'a-result.json'), '{"status":"failed"}');
  const info = {
    tool: { name: 'payconnect-conformance', version: '0.1.0' },
    target: { kind: 'url', baseUrl: 'https://pay.staging.test/paycon' },
    profile: 'sandbox',
    terminalMode: 'auto',
    seed: 5,
    strict: false,
    integratorId: 'i',
    suitesSelected: [],
    contract: { file: CONTRACT, sha256: 'x' },
    faults: [],
    labels: { firmware: '4.2.1' },
    startedAt: 's',
    finishedAt: 'f',
  } as RunInfo;
  const { privateKey } = loadSigningKey(join(keyDir, 'key.pem'), {});
  signReports(dir, { privateKey, record, summary, info, root: ROOT });
  return { dir, pub: join(keyDir, 'key.pub'), pem: join(keyDir, 'key.pem') };
}

const verifyIn = (dir: string, pub: string, over: { required?: string[]; rejudged?: Rejudged } = {}) =>
  verifyCertificate({
    dir,
    publicKey: loadPublicKey(pub),
    root: ROOT,
    contractFile: CONTRACT,
    requiredTests: async () => over.required ?? TESTS,
    rejudge: async () => over.rejudged ?? { verdict: 'fail', failedTests: ['payment > c'] },
  });

describe('a signed reports folder', () => {
  it('holds an in-toto test-result statement in a DSSE envelope, with the run named and no key material', () => {
    const { dir, pem } = signedFolder();
    const text = readFileSync(join(dir, CERTIFICATE_FILE), 'utf8');
    const env = JSON.parse(text) as { payloadType: string; payload: string; signatures: { keyid: string }[] };
    expect(env.payloadType).toBe('application/vnd.in-toto+json');
    const st = JSON.parse(Buffer.from(env.payload, 'base64').toString()) as {
      _type: string;
      predicateType: string;
      subject: { name: string }[];
      predicate: Record<string, unknown>;
    };
    expect(st._type).toBe('https://in-toto.io/Statement/v1');
    expect(st.predicateType).toBe('https://in-toto.io/attestation/test-result/v0.1');
    // Every file of the folder a reader trusts, then the toolkit's.
    expect(st.subject.map((s) => s.name)).toEqual([
      'allure-results/a-result.json',
      'certification.html',
      SUBJECTS.summary,
      SUBJECTS.transcript,
      CONTRACT,
      SUBJECTS.toolkit,
    ]);
    expect(st.predicate).toMatchObject({
      result: 'FAILED',
      passedTests: ['config > a'],
      warnedTests: ['config > b'],
      failedTests: ['payment > c'],
    });
    expect(JSON.stringify(st.predicate)).toContain('"host":"pay.staging.test"');
    expect(text).not.toContain(readFileSync(pem, 'utf8').split('\n')[1]);
  });

  it('verifies with the right key, and each edit or another key is refused with its reason', async () => {
    const { dir, pub } = signedFolder();
    expect(await verifyIn(dir, pub)).toMatchObject({ valid: true, reasons: [] });

    const other = signedFolder();
    const wrong = await verifyIn(dir, other.pub);
    expect(wrong.valid).toBe(false);
    expect(wrong.reasons.join('\n')).toMatch(/the signature does not verify with the public key given/);

    // The list of tests is signed: one the run did not run makes the package partial, not forged.
    const partial = await verifyIn(dir, pub, { required: [...TESTS, 'pairing > d'] });
    expect(partial).toMatchObject({ valid: true, reasons: [] });
    expect(partial.partial).toMatch(
      /^1 test of the complete set was not run \(a run restricted by --grep, or one shard; first: pairing > d\)/,
    );
    const forged = await verifyIn(dir, pub, { required: TESTS.slice(1) });
    expect(forged.reasons.join('\n')).toMatch(/1 test listed that the toolkit's suites do not declare \(first: config > a\)/);
    const rejudged = await verifyIn(dir, pub, { rejudged: { verdict: 'pass', failedTests: [] } });
    expect(rejudged.reasons.join('\n')).toMatch(
      /re-judging the transcript gives pass, not the signed result \(FAILED\)[\s\S]*payment > c passes now/,
    );

    writeFileSync(join(dir, 'certification.html'), '<h1>CERTIFIED</h1>');
    writeFileSync(join(dir, 'allure-results', 'a-result.json'), '{"status":"passed"}');
    writeFileSync(join(dir, 'junit.xml'), '<testsuites/>');
    writeFileSync(join(dir, SUBJECTS.transcript), 'line 1\nline 2 edited\n');
    writeFileSync(join(dir, SUBJECTS.summary), JSON.stringify({ verdict: 'pass' }));
    const edited = await verifyIn(dir, pub);
    expect(edited.valid).toBe(false);
    expect(edited.reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^transcript\.jsonl\.gz was changed after signing/),
        expect.stringMatching(/^summary\.json was changed after signing/),
        expect.stringMatching(/^certification\.html was changed after signing/),
        expect.stringMatching(/^allure-results\/a-result\.json was changed after signing/),
        expect.stringMatching(/^junit\.xml is not covered by the certificate: it was added after signing/),
        expect.stringMatching(/summary\.json's verdict \(pass\) is not the signed result \(FAILED\)/),
      ]),
    );
  });

  it('refuses keys that are not Ed25519, and an encrypted key without its passphrase', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pcc-keys-'));
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    writeFileSync(join(dir, 'rsa.pem'), rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(() => loadSigningKey(join(dir, 'rsa.pem'), {})).toThrow(/is a rsa key, not Ed25519/);
    const ed = generateKeyPairSync('ed25519');
    writeFileSync(join(dir, 'enc.pem'), ed.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }));
    expect(() => loadSigningKey(join(dir, 'enc.pem'), {})).toThrow(/passphrase is missing or wrong/);
    expect(loadSigningKey(join(dir, 'enc.pem'), { PAYCONNECT_SIGNING_KEY_PASSPHRASE: 'pw' }).keyid).toMatch(/^[0-9a-f]{64}$/);
    expect(() => loadSigningKey(join(dir, 'none.pem'), {})).toThrow(/cannot be read \(ENOENT\)/);
  });
});
