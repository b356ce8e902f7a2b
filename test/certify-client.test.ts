/**
 * certify-client against the reference client of examples/pos-client and its broken copies: the
 * reference is certified clean (and leaks no secret into any output), each broken copy is not,
 * naming its rule; a client run by hand against `sim --record` is judged from the recording.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ruleById } from '../src/checks/rule-registry.ts';
import { validateDisableCheck } from '../src/checks/disable-check.ts';
import { certifyClientCommand } from '../src/cli/commands/certify-client.ts';
import { jsonLinesSink, startSimulator, type SimulatorHandle } from '../src/simulator/index.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLIENT = join(ROOT, 'examples/pos-client/pos-client.ts');
const broken = (name: string) => join(ROOT, 'examples/pos-client/broken', `${name}.ts`);
const node = (file: string) => [process.execPath, '--import', 'tsx', file];

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

async function certify(flags: string[], command: string[], env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'pcc-certify-'));
  dirs.push(dir);
  const out: string[] = [];
  const err: string[] = [];
  let sim: SimulatorHandle | undefined;
  const code = await certifyClientCommand(
    [...flags, '--reports', dir, '--', ...command],
    { ...process.env, ...env },
    { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), interactive: false },
    { onSimulator: (s) => (sim = s) },
  );
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  const certification = readFileSync(join(dir, 'certification.md'), 'utf8');
  return { code, out: out.join(''), err: err.join(''), dir, summary, certification, secrets: sim!.issuedSecrets() };
}

describe('certify-client and the reference POS client', () => {
  it('certifies the reference client clean, with every report written and no secret in any output', async () => {
    const r = await certify([], node(CLIENT));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^CERTIFIED: reports in /m);
    expect(r.summary.verdict).toBe('pass');
    expect(r.summary.findings).toEqual([]);
    expect(r.certification).toMatch(/CERTIFIED/);
    expect(r.certification).not.toMatch(/NOT CERTIFIED/);
    const files = filesUnder(r.dir);
    expect(files.map((f) => f.slice(r.dir.length + 1))).toEqual(
      expect.arrayContaining(['summary.json', 'junit.xml', 'certification.md', 'certification.html', 'allure-report/index.html']),
    );
    expect(files.some((f) => f.includes('allure-results'))).toBe(true);
    // The webhook rules ran: the client has an endpoint, got a forged delivery and refused it.
    const forged = r.summary.skipped?.find((s: { test: string }) => s.test.includes('receiver.wrong-signature-refused'));
    expect(forged).toBeUndefined();
    expect(r.secrets.length).toBeGreaterThanOrEqual(3); // client secret, webhook key, a token
    const texts = [r.out, r.err, ...files.map((f) => readFileSync(f, 'latin1'))];
    for (const s of r.secrets) for (const t of texts) expect(t.includes(s)).toBe(false);
  });

  it('renews its token on 401 when tokens expire during the run, and stays certified', async () => {
    const r = await certify(['--no-html', '--token-lifetime', '1', '--step-delay', '300'], node(CLIENT), { POS_CLIENT_PAYMENTS: '2' });
    expect(r.out).toMatch(/token refused \(401\): getting a new one/);
    expect(r.code).toBe(0);
    // Nothing about tokens; on a loaded runner the client's own timers can bunch two polls, which the
    // poll-rate rule may warn about (a warning: still certified), so only that one is let through.
    expect(r.summary.findings.filter((f: { check: string }) => f.check !== 'client.poll-rate')).toEqual([]);
    expect(r.summary.findings.every((f: { severity: string }) => f.severity === 'warning')).toBe(true);
  });

  it.each([
    ['no-integrator-header', 'client.integrator-header', []],
    ['resend-generate', 'client.generate-resend', []],
    ['slip-before-final', 'client.slip-after-final', []],
    // The webhook endpoint's rules are check-receiver's: the same id and severity in both commands.
    ['accepts-forged-webhook', 'receiver.wrong-signature-refused', []],
    ['refuses-genuine-webhooks', 'receiver.valid-accepted', []],
    ['token-per-call', 'client.token-reuse', ['--strict']],
    ['tight-polling', 'client.poll-rate', ['--strict']],
    // Slow terminal steps: the payment the client collides with is still running however loaded the
    // machine is (at the default steps, on a busy runner it had ended before the second one started).
    ['tight-busy-retry', 'client.busy-retry', ['--strict', '--step-delay', '1s']],
  ])('broken/%s.ts is not certified, naming %s', async (name, rule, flags) => {
    const r = await certify(['--no-html', ...flags], node(broken(name)));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^NOT CERTIFIED/m);
    expect(r.out).toMatch(new RegExp(`^✗ client > .*\\[${rule.replace('.', '\\.')}\\]`, 'm'));
    expect(r.summary.findings.map((f: { check: string }) => f.check)).toContain(rule);
    expect(
      r.summary.findings.filter((f: { check: string }) => f.check === rule).every((f: { severity: string }) => f.severity === 'failure'),
    ).toBe(true);
    expect(r.certification).toMatch(/NOT CERTIFIED/);
    expect(r.certification).toContain(`[${rule}]`);
    expect(ruleById(rule)!.judges).toContain('certify-client');
  });

  it('a client whose endpoint refuses every genuine delivery fails receiver.valid-accepted, the rule check-receiver fails it by; its old id still disables it', async () => {
    const r = await certify(['--no-html'], node(broken('refuses-genuine-webhooks')));
    const mine = r.summary.findings.filter((f: { check: string }) => f.check === 'receiver.valid-accepted');
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.map((f: { severity: string; clause: string }) => [f.severity, f.clause])).toEqual(
      mine.map(() => ['failure', 'spec#events']),
    );
    expect(ruleById('receiver.valid-accepted')).toMatchObject({
      judges: ['check-receiver', 'certify-client'],
      source: 'spec',
      clause: 'spec#events',
    });
    expect(r.summary.findings.map((f: { check: string }) => f.check)).not.toContain('client.webhook-accepted');
    expect(validateDisableCheck(['client.webhook-accepted'], 'certify-client')).toEqual(['receiver.valid-accepted']);
  });

  it('a profile rule broken without --strict is a warning: certified, exit 0', async () => {
    const r = await certify(['--no-html'], node(broken('tight-polling')));
    expect(r.code, `${r.out}${r.err}`).toBe(0);
    expect(r.summary.findings.length).toBeGreaterThan(0);
    for (const f of r.summary.findings) expect(f).toMatchObject({ check: 'client.poll-rate', severity: 'warning' });
    expect(r.out).toMatch(/^CERTIFIED/m);
  });

  it('judges a client run by hand against sim --record from the recording file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pcc-byhand-'));
    dirs.push(dir);
    const file = join(dir, 'recording.jsonl');
    const sim = await startSimulator({ record: jsonLinesSink(file), forgeWebhook: true });
    let exit: number | null;
    try {
      const child = spawn(node(CLIENT)[0]!, node(CLIENT).slice(1), {
        env: { ...process.env, PAYCONNECT_BASE_URL: sim.url, PAYCONNECT_INTEGRATOR_ID: sim.integratorId, PAYCONNECT_OTP: sim.mintOtp() },
        stdio: 'ignore',
      });
      exit = await new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    } finally {
      await sim.close();
    }
    expect(exit).toBe(0);
    const out: string[] = [];
    const code = await certifyClientCommand(
      ['--recording', file, '--reports', join(dir, 'reports'), '--no-html'],
      {},
      { stdout: (s) => void out.push(s), stderr: (s) => void out.push(s), interactive: false },
    );
    expect(code).toBe(0);
    expect(out.join('')).toMatch(/✓ client > .*\[receiver.wrong-signature-refused\]/);
    const texts = [readFileSync(file, 'utf8'), out.join(''), ...filesUnder(join(dir, 'reports')).map((f) => readFileSync(f, 'latin1'))];
    for (const s of sim.issuedSecrets()) for (const t of texts) expect(t.includes(s)).toBe(false);
  });
});
