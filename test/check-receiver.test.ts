/**
 * `check-receiver` as a user runs it (in process, through its command function): a correct receiver
 * passes every rule; each broken receiver fails (or warns about) the rule it breaks; one slower than
 * the timeout is given up after two timeouts in a row, the rest not checked; usage errors are one
 * line and exit 2; the secret is in no output and no report file.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ruleById } from '../src/checks/rule-registry.ts';
import { validateDisableCheck } from '../src/checks/disable-check.ts';
import { RULE_IDS, TIMEOUTS_IN_A_ROW, checkReceiver } from '../src/receiver-check/index.ts';
import { CHECK_RECEIVER_USAGE, checkReceiverCommand } from '../src/cli/commands/check-receiver.ts';
import { type ReceiverFlaw, startTestReceiver } from './support/receivers/webhook-receiver.ts';

const SECRET = 'whsec-test-7f3a9c2e5b1d4a6f8e0c-do-not-print';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'pcc-check-receiver-'));
  dirs.push(d);
  return d;
};

interface Result {
  code: number;
  stdout: string;
  stderr: string;
  reports: string;
  summary?: {
    verdict: string;
    counts: Record<string, number>;
    findings: { check: string; severity: string; clause: string; message: string }[];
    target: { kind: string; baseUrl: string };
    blocked: { check: string; count: number; tests: string[] }[];
    skipped?: { test: string; reason: string }[];
  };
}

async function runCommand(args: string[], env: NodeJS.ProcessEnv = { PAYCONNECT_WEBHOOK_SECRET: SECRET }): Promise<Result> {
  const reports = join(tempDir(), 'reports');
  let stdout = '';
  let stderr = '';
  const argv = args.includes('--reports') ? args : [...args, '--reports', reports];
  const code = await checkReceiverCommand(argv, env, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), interactive: false });
  const file = join(reports, 'summary.json');
  return {
    code,
    stdout,
    stderr,
    reports,
    ...(existsSync(file) ? { summary: JSON.parse(readFileSync(file, 'utf8')) as Result['summary'] } : {}),
  };
}

async function withReceiver(flaw: ReceiverFlaw, args: string[] = [], opts: { slowMs?: number } = {}): Promise<Result> {
  const receiver = await startTestReceiver(SECRET, flaw, opts);
  try {
    return await runCommand(['--url', receiver.url, '--no-html', ...args]);
  } finally {
    await receiver.close();
  }
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

function expectNoSecret(r: Result): void {
  expect(r.stdout).not.toContain(SECRET);
  expect(r.stderr).not.toContain(SECRET);
  const files = filesUnder(r.reports);
  expect(files.length).toBeGreaterThan(4);
  for (const f of files) expect(readFileSync(f).includes(SECRET), f).toBe(false);
}

describe('check-receiver against a correct receiver', () => {
  it('passes every rule, certifies, writes every report (HTML included) and never shows the secret', async () => {
    const receiver = await startTestReceiver(SECRET);
    let r: Result;
    try {
      r = await runCommand(['--url', receiver.url]);
    } finally {
      await receiver.close();
    }
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.summary!.verdict).toBe('pass');
    expect(r.summary!.findings).toEqual([]);
    expect(r.summary!.counts).toMatchObject({
      tests: RULE_IDS.length,
      passed: RULE_IDS.length,
      failed: 0,
      skipped: 0,
      failures: 0,
      warnings: 0,
    });
    expect(r.summary!.target).toEqual({ kind: 'receiver', baseUrl: receiver.url });
    for (const id of RULE_IDS) expect(r.stdout).toContain(`✓ ${id}`);
    const md = readFileSync(join(r.reports, 'certification.md'), 'utf8');
    expect(md).toContain(`# Pay-Connect conformance certification: webhook receiver ${receiver.url}`);
    expect(md).toContain('**Verdict: CERTIFIED**');
    expect(readFileSync(join(r.reports, 'certification.html'), 'utf8')).toContain('CERTIFIED');
    const junit = readFileSync(join(r.reports, 'junit.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(RULE_IDS.length);
    const results = readdirSync(join(r.reports, 'allure-results')).filter((n) => n.endsWith('-result.json'));
    expect(results).toHaveLength(RULE_IDS.length);
    expect(existsSync(join(r.reports, 'allure-report', 'index.html'))).toBe(true);
    expectNoSecret(r);
  });

  it('takes the secret from --secret-file (one trailing newline ignored)', async () => {
    const file = join(tempDir(), 'secret');
    writeFileSync(file, `${SECRET}\n`, { mode: 0o600 });
    const receiver = await startTestReceiver(SECRET);
    try {
      const r = await runCommand(['--url', receiver.url, '--no-html', '--secret-file', file], {});
      expect(r.code).toBe(0);
      expect(r.summary!.findings).toEqual([]);
      expectNoSecret(r);
    } finally {
      await receiver.close();
    }
  });
});

describe('check-receiver against broken receivers', () => {
  const cases: { flaw: ReceiverFlaw; rule: string; severity: 'failure' | 'warning'; clause?: string }[] = [
    { flaw: 'accepts-unsigned', rule: 'receiver.unsigned-refused', severity: 'failure' },
    { flaw: 'accepts-wrong-signature', rule: 'receiver.wrong-signature-refused', severity: 'failure' },
    { flaw: 'reserialises', rule: 'receiver.raw-bytes-verified', severity: 'failure' },
    { flaw: 'refuses-duplicates', rule: 'receiver.duplicate-accepted', severity: 'warning', clause: 'sandbox#webhooks' },
    { flaw: 'refuses-out-of-order', rule: 'receiver.out-of-order-accepted', severity: 'warning', clause: 'sandbox#webhooks' },
    { flaw: 'fails-unknown-event', rule: 'receiver.unknown-event-accepted', severity: 'warning' },
    { flaw: 'fails-malformed', rule: 'receiver.malformed-refused', severity: 'warning' },
  ];
  for (const c of cases) {
    it(`${c.flaw}: ${c.severity === 'failure' ? 'exit 1' : 'a warning (exit 0)'} naming ${c.rule}`, async () => {
      const r = await withReceiver(c.flaw);
      const mine = r.summary!.findings.filter((f) => f.check === c.rule);
      expect(mine, JSON.stringify(r.summary!.findings)).toHaveLength(1);
      expect(mine[0]!.severity).toBe(c.severity);
      expect(mine[0]!.clause).toBe(c.clause ?? (c.severity === 'failure' ? 'spec#events' : 'profile#webhooks'));
      expect(r.code).toBe(c.severity === 'failure' ? 1 : 0);
      expect(r.stdout).toContain(`${c.severity === 'failure' ? '✗' : '!'} ${c.rule}`);
      if (c.flaw !== 'accepts-wrong-signature') expect(r.summary!.findings.map((f) => f.check)).toEqual([c.rule]);
      else
        expect(r.summary!.findings.map((f) => f.check).sort()).toEqual([
          'receiver.other-key-refused',
          'receiver.tampered-refused',
          'receiver.wrong-signature-refused',
        ]);
      expect(readFileSync(join(r.reports, 'certification.md'), 'utf8')).toContain(
        c.severity === 'failure' ? 'NOT CERTIFIED' : '**Verdict: CERTIFIED**',
      );
      expectNoSecret(r);
    });
  }

  it('a receiver that refuses every genuine delivery (it verifies with another key) fails receiver.valid-accepted, the rule certify-client fails it by', async () => {
    const receiver = await startTestReceiver('whsec-another-key-than-the-one-given');
    let r: Result;
    try {
      r = await runCommand(['--url', receiver.url, '--no-html']);
    } finally {
      await receiver.close();
    }
    expect(r.code).toBe(1);
    const mine = r.summary!.findings.filter((f) => f.check === 'receiver.valid-accepted');
    expect(mine.map((f) => [f.severity, f.clause])).toEqual([['failure', 'spec#events']]);
    expect(ruleById('receiver.valid-accepted')).toMatchObject({ judges: ['check-receiver', 'certify-client'], source: 'spec' });
    expect(r.summary!.findings.map((f) => f.check)).not.toContain('client.webhook-accepted');
  });

  it('rules turned off (checkReceiver disabled, as validateDisableCheck returns them) are neither sent nor filed', async () => {
    const receiver = await startTestReceiver(SECRET, 'refuses-duplicates');
    try {
      const disabled = validateDisableCheck(['receiver.duplicate-accepted', 'receiver.answered-in-time'], 'check-receiver');
      const record = await checkReceiver({
        url: new URL(receiver.url),
        shownUrl: receiver.url,
        secret: SECRET,
        timeoutMs: 5000,
        strict: false,
        userAgent: 'test',
        disabled,
      });
      const rules = record.tests.map((t) => t.parameters.rule);
      expect(rules).toEqual(RULE_IDS.filter((id) => !disabled.includes(id)));
      expect(record.tests.flatMap((t) => t.findings)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('a profile rule fails under --strict (exit 1)', async () => {
    const r = await withReceiver('fails-malformed', ['--strict']);
    expect(r.code).toBe(1);
    expect(r.summary!.findings.map((f) => [f.check, f.severity])).toEqual([['receiver.malformed-refused', 'failure']]);
  });

  it('a receiver slower than --timeout: a warning (exit 0), a failure with --strict', async () => {
    const r = await withReceiver('slow', ['--timeout', '250ms'], { slowMs: 700 });
    expect(r.code).toBe(0);
    expect(r.summary!.findings.map((f) => [f.check, f.severity])).toEqual([['receiver.answered-in-time', 'warning']]);
    expect(r.summary!.findings[0]!.message).toMatch(/later than 250 ms: transaction\.in_progress/);
    const strict = await withReceiver('slow', ['--timeout', '250ms', '--strict'], { slowMs: 700 });
    expect(strict.code).toBe(1);
  });

  it('an unreachable receiver: one clear line, a failure of receiver.valid-accepted, the other rules not checked (exit 1)', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const url = `http://127.0.0.1:${port}/hook`;
    const r = await runCommand(['--url', url, '--no-html']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`receiver ${url} did not answer`);
    expect(r.stderr).toContain('ECONNREFUSED');
    expect(r.summary!.findings.map((f) => f.check)).toEqual(['receiver.valid-accepted']);
    expect(r.summary!.counts).toMatchObject({ failed: 1, skipped: RULE_IDS.length - 1 });
  });
});

/**
 * A loopback endpoint that answers 200 to every delivery, the ones from the `slowFrom`-th (1-based)
 * on after `delayMs`; `received` counts the deliveries as they arrive.
 */
async function startSlowEndpoint(slowFrom: number, delayMs: number) {
  let received = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = createHttpServer((req, res) => {
    const n = ++received;
    req.resume();
    req.on('end', () => {
      const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      if (n < slowFrom) return answer();
      const t = setTimeout(() => {
        timers.delete(t);
        answer();
      }, delayMs);
      timers.add(t);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('check-receiver against a receiver slower than the timeout', () => {
  const ROOT = 'receiver.answered-in-time';

  it('every delivery late: given up after two timeouts (two deliveries received), one root finding first, every other rule not checked in every report (exit 1)', async () => {
    const endpoint = await startSlowEndpoint(1, 700);
    const t0 = Date.now();
    let r: Result;
    try {
      r = await runCommand(['--url', endpoint.url, '--timeout', '200ms', '--no-html']);
      // Two timeouts, then no more waiting, and no more deliveries either.
      expect(endpoint.received()).toBe(TIMEOUTS_IN_A_ROW);
    } finally {
      await endpoint.close();
    }
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(r.code).toBe(1);
    const s = r.summary!;
    expect(s.verdict).toBe('fail');
    // One root finding, the slowness, first; nothing passed.
    expect(s.findings.map((f) => [f.check, f.severity])).toEqual([[ROOT, 'failure']]);
    expect(s.findings[0]!.message).toMatch(
      /^no answer within 200 ms to 2 deliveries in a row \(transaction\.initiated \(receiver\.valid-accepted\): \d+ ms, transaction\.in_progress \(receiver\.valid-accepted\): no whole answer within 200 ms\): the receiver is too slow to be judged and is not waited for again, 11 rules not checked; fix: /,
    );
    expect(s.counts).toMatchObject({
      tests: RULE_IDS.length,
      passed: 0,
      failed: 1,
      skipped: RULE_IDS.length - 1,
      failures: 1,
      warnings: 0,
    });
    expect(s.blocked).toHaveLength(1);
    expect(s.blocked[0]).toMatchObject({ check: ROOT, count: RULE_IDS.length - 1 });
    expect(s.skipped).toHaveLength(RULE_IDS.length - 1);
    for (const k of s.skipped!)
      expect(k.reason).toMatch(/^blocked by \[receiver\.answered-in-time\] no answer within 200 ms .*: not checked, /);
    expect(s.skipped![0]!.reason).toMatch(/: not checked, 2 of its 13 deliveries sent \(1 not answered\), 11 not sent$/);
    // The terminal: the root cause first (one line on stderr, the root's rule first on stdout), then what it blocked.
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^receiver ${endpoint.url}: no answer within 200 ms to 2 deliveries in a row .* too slow`)),
    ]);
    const ruleLines = r.stdout.split('\n').filter((l) => /^[✓!✗-] /.test(l));
    expect(ruleLines[0]).toBe(`✗ ${ROOT}: every delivery is answered within the timeout (200 ms)`);
    expect(ruleLines.slice(1)).toHaveLength(RULE_IDS.length - 1);
    for (const l of ruleLines.slice(1))
      expect(l).toMatch(/^- receiver\.[a-z-]+: not checked, .*\(blocked by \[receiver\.answered-in-time\]\)$/);
    expect(r.stdout).toContain(`FAIL: 0 passed, 1 failed, ${RULE_IDS.length - 1} not checked`);
    // JUnit: skipped, saying not checked and by what.
    const junit = readFileSync(join(r.reports, 'junit.xml'), 'utf8');
    expect(junit.match(/<skipped message="blocked by \[receiver\.answered-in-time\][^"]*: not checked, [^"]*"\/>/g)).toHaveLength(
      RULE_IDS.length - 1,
    );
    expect(junit.match(/<failure /g)).toHaveLength(1);
    // Certification: not certified, the root cause first.
    const md = readFileSync(join(r.reports, 'certification.md'), 'utf8');
    expect(md).toContain('NOT CERTIFIED');
    expect(md).toMatch(
      /Not certified because:\n\n- root cause: \[receiver\.answered-in-time\] \(profile#webhooks\) no answer within 200 ms .*11 rules not checked.* blocked 11 tests\)/,
    );
    // Allure: one failed, the rest skipped as blocked, none passed.
    const results = readdirSync(join(r.reports, 'allure-results'))
      .filter((n) => n.endsWith('-result.json'))
      .map(
        (n) =>
          JSON.parse(readFileSync(join(r.reports, 'allure-results', n), 'utf8')) as {
            status: string;
            statusDetails?: { message?: string };
          },
      );
    expect(results.filter((x) => x.status === 'failed')).toHaveLength(1);
    const skipped = results.filter((x) => x.status === 'skipped');
    expect(skipped).toHaveLength(RULE_IDS.length - 1);
    for (const x of skipped) expect(x.statusDetails?.message).toMatch(/^blocked by \[receiver\.answered-in-time\].*: not checked, /);
    expectNoSecret(r);
  });

  it('late from the 14th delivery on: the rule before is judged (passed), the one cut short and the rest not checked (15 deliveries received)', async () => {
    const endpoint = await startSlowEndpoint(14, 600);
    let r: Result;
    try {
      r = await runCommand(['--url', endpoint.url, '--timeout', '200ms', '--no-html']);
      expect(endpoint.received()).toBe(13 + TIMEOUTS_IN_A_ROW);
    } finally {
      await endpoint.close();
    }
    expect(r.code).toBe(1);
    expect(r.summary!.findings.map((f) => f.check)).toEqual([ROOT]);
    expect(r.summary!.findings[0]!.message).toContain('transaction.success as spaced JSON (", " and ": ") (receiver.raw-bytes-verified)');
    expect(r.summary!.counts).toMatchObject({ passed: 1, failed: 1, skipped: RULE_IDS.length - 2 });
    const lines = r.stdout.split('\n').filter((l) => /^[✓!✗-] /.test(l));
    expect(lines.slice(0, 3)).toEqual([
      expect.stringMatching(/^✓ receiver\.valid-accepted: /),
      expect.stringMatching(/^✗ receiver\.answered-in-time: /),
      '- receiver.raw-bytes-verified: not checked, 2 of its 4 deliveries sent (1 not answered), 2 not sent (blocked by [receiver.answered-in-time])',
    ]);
  });
});

describe('check-receiver usage', () => {
  const usage = async (args: string[], env: NodeJS.ProcessEnv = { PAYCONNECT_WEBHOOK_SECRET: SECRET }) => {
    const r = await runCommand(args, env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^PCC_USAGE: /);
    expect(lines[1]).toMatch(/^ {2}fix: /);
    expect(r.stderr).not.toContain(SECRET);
    expect(existsSync(join(r.reports, 'summary.json'))).toBe(false);
    return lines[0]!;
  };
  const url = 'http://127.0.0.1:9/hook';

  it('no secret, both secrets, an unreadable or empty file', async () => {
    expect(await usage(['--url', url], {})).toContain('no webhook secret key given');
    expect(await usage(['--url', url], { PAYCONNECT_WEBHOOK_SECRET: '' })).toContain('no webhook secret key given');
    const file = join(tempDir(), 'secret');
    writeFileSync(file, SECRET);
    expect(await usage(['--url', url, '--secret-file', file])).toContain('both PAYCONNECT_WEBHOOK_SECRET and --secret-file');
    expect(await usage(['--url', url, '--secret-file', join(tempDir(), 'missing')], {})).toContain('cannot be read (ENOENT)');
    const empty = join(tempDir(), 'empty');
    writeFileSync(empty, '\n');
    expect(await usage(['--url', url, '--secret-file', empty], {})).toContain('is empty');
  });

  it('a missing or bad URL, a bad timeout, an unknown flag, a secret as a flag value (never echoed)', async () => {
    expect(await usage([])).toContain('--url is required');
    expect(await usage(['--url', 'not a url'])).toContain('--url is not a URL');
    expect(await usage(['--url', 'ftp://127.0.0.1/x'])).toContain('must be http or https');
    expect(await usage(['--url', url, '--timeout', 'soon'])).toBe('PCC_USAGE: invalid --timeout "soon": not a duration');
    expect(await usage(['--url', url, '--timeout', '1.5ms'])).toBe(
      'PCC_USAGE: invalid --timeout "1.5ms": not a whole number of milliseconds',
    );
    expect(await usage(['--url', url, '--timeout', '--strict'])).toContain("Option '--timeout' argument is ambiguous.");
    // As run reads --seed -5: a value that starts with a dash and a digit is a value, judged by its parser.
    expect(await usage(['--url', url, '--timeout', '-5s'])).toBe('PCC_USAGE: invalid --timeout "-5s": not a duration');
    expect(await usage(['--url', url, '--timeout=-5s'])).toBe('PCC_USAGE: invalid --timeout "-5s": not a duration');
    for (const bad of ['0', '50ms', '3m', '99999999m'])
      expect(await usage(['--url', url, '--timeout', bad])).toBe(`PCC_USAGE: invalid --timeout "${bad}": must be from 100ms to 2m`);
    expect(await usage(['--url', url, '--verbose'])).toContain('unknown flag --verbose');
    expect(await usage(['--url', url, `--secret=${SECRET}`])).toContain('the secret is never given as a flag value');
    expect(await usage(['--url', url, '--secret', SECRET])).toContain('unknown option --secret');
    expect(await usage(['--url', url, SECRET])).toContain('unexpected argument');
  });

  it('--help prints the usage with every rule', async () => {
    let out = '';
    const code = await checkReceiverCommand(['--help'], {}, { stdout: (s) => (out += s), stderr: () => {}, interactive: false });
    expect(code).toBe(0);
    expect(out).toBe(CHECK_RECEIVER_USAGE);
    for (const id of RULE_IDS) expect(out).toContain(id);
  });
});
