/**
 * Every command reads its flags through the one kit: a misspelt flag is one message naming it with a
 * suggestion and exit 2, before anything is written; --help lists every row; every duration flag
 * takes 2s and 1500ms alike.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_COMMAND, type CommandSpec, formatCommandHelp, parseCommandLine, resolveConfig } from '../config/index.ts';
import { CERTIFY_CLIENT_COMMAND, parseCertifyClientArgs } from './commands/certify-client.ts';
import { CHECK_RECEIVER_COMMAND, parseCheckReceiverArgs } from './commands/check-receiver.ts';
import { BASELINE_COMMAND } from './commands/baseline.ts';
import { COMMAND_LIST } from './commands/index.ts';
import { COMMAND_NAMES, main } from './main.ts';
import { MERGE_COMMAND } from './commands/merge-reports.ts';
import { CHECK_PACT_COMMAND } from './commands/check-pact.ts';
import { PUBLISH_PACTS_COMMAND } from './commands/publish-pacts.ts';
import { VERIFY_PACTS_COMMAND } from './commands/verify-pacts.ts';
import { PAIR_COMMAND } from './commands/pair.ts';
import { UNPAIR_COMMAND } from './commands/unpair.ts';
import { REJUDGE_COMMAND } from './commands/rejudge.ts';
import { REPORT_COMMAND } from './commands/report.ts';
import { SIM_COMMAND, simOptionsOf } from './commands/sim.ts';
import { COMPARE_COMMAND } from './commands/compare.ts';
import { VERIFY_CERTIFICATE_COMMAND } from './commands/verify-certificate.ts';

/** Each command's spec, and one of its flags misspelt with what it should be. */
const SPECS: Record<string, { spec: CommandSpec; typo: string; meant: string }> = {
  run: { spec: RUN_COMMAND, typo: '--reprots', meant: '--reports' },
  sim: { spec: SIM_COMMAND, typo: '--prot', meant: '--port' },
  pair: { spec: PAIR_COMMAND, typo: '--tagret', meant: '--target' },
  unpair: { spec: UNPAIR_COMMAND, typo: '--valut', meant: '--vault' },
  report: { spec: REPORT_COMMAND, typo: '--prot', meant: '--port' },
  'merge-reports': { spec: MERGE_COMMAND, typo: '--no-hmtl', meant: '--no-html' },
  compare: { spec: COMPARE_COMMAND, typo: '--fail-no', meant: '--fail-on' },
  rejudge: { spec: REJUDGE_COMMAND, typo: '--reprots', meant: '--reports' },
  'verify-certificate': { spec: VERIFY_CERTIFICATE_COMMAND, typo: '--public-kye', meant: '--public-key' },
  baseline: { spec: BASELINE_COMMAND, typo: '--expries', meant: '--expires' },
  'verify-pacts': { spec: VERIFY_PACTS_COMMAND, typo: '--deadlien', meant: '--deadline' },
  'publish-pacts': { spec: PUBLISH_PACTS_COMMAND, typo: '--broker-ulr', meant: '--broker-url' },
  'check-pact': { spec: CHECK_PACT_COMMAND, typo: '--jsno', meant: '--json' },
  'check-receiver': { spec: CHECK_RECEIVER_COMMAND, typo: '--timout', meant: '--timeout' },
  'certify-client': { spec: CERTIFY_CLIENT_COMMAND, typo: '--recodring', meant: '--recording' },
};

function io() {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (s: string) => void (out.stdout += s), stderr: (s: string) => void (out.stderr += s), interactive: false } };
}

describe('the command kit, on every command', () => {
  let dir: string;
  let before: string;
  beforeAll(() => {
    before = process.cwd();
    dir = mkdtempSync(join(tmpdir(), 'pcc-kit-'));
    process.chdir(dir);
  });
  afterAll(() => {
    process.chdir(before);
    rmSync(dir, { recursive: true, force: true });
  });

  it('has a spec for every command main knows', () => {
    expect(Object.keys(SPECS).sort()).toEqual([...COMMAND_NAMES].sort());
    for (const [name, { spec }] of Object.entries(SPECS)) expect(spec.name).toBe(name);
  });

  it.each(Object.entries(SPECS))(
    '%s: a misspelt flag is one message naming it and a suggestion, exit 2, nothing written',
    async (name, { typo, meant }) => {
      const { out, io: x } = io();
      // A value after the flag, as a user would type it; and a reports folder the command would use.
      const code = await main([name, typo, '1', '--reports', 'out'], { PAYCONNECT_WEBHOOK_SECRET: 's3cret-value' }, x);
      expect(code).toBe(2);
      expect(out.stderr).toBe(
        `PCC_USAGE: unknown flag ${typo}; did you mean ${meant}?\n  fix: run "payconnect-conformance ${name} --help" to list every flag\n`,
      );
      expect(out.stdout).toBe('');
      expect(readdirSync(dir)).toEqual([]);
    },
  );

  it.each(Object.entries(SPECS))('%s --help: exit 0, the help made from the rows, every row listed', async (name, { spec }) => {
    const { out, io: x } = io();
    expect(await main([name, '--help'], {}, x)).toBe(0);
    expect(out.stderr).toBe('');
    expect(out.stdout).toBe(formatCommandHelp(spec));
    for (const flag of spec.sections.flatMap((s) => s.flags)) {
      expect(out.stdout).toContain(flag.type === 'boolean' && flag.negated ? `--no-${flag.name}` : `--${flag.name}`);
      if (flag.envText) expect(out.stdout.replace(/\s+/g, ' ')).toContain(flag.envText);
    }
    expect(out.stdout).toContain('-h, --help');
    for (const line of out.stdout.split('\n')) if (!line.includes('://')) expect(line.length, line).toBeLessThanOrEqual(110);
  });
});

describe('one duration parser for every duration flag', () => {
  it.each([
    ['2s', 2000],
    ['1500ms', 1500],
    ['1.5s', 1500],
    ['1500', 1500],
  ])('run: %s', async (text, ms) => {
    // The step delay is the simulator's, at most 1s (and a deadline takes more than two): as sim's test below gives it.
    const step = text === '2s' ? '0.5s' : '500ms';
    const c = await resolveConfig({
      argv: ['--deadline', text, '--max-duration', text, '--settle', text, '--sim-step-delay', step, '--sim-deadline', text],
      env: {},
      cwd: tmpdir(),
    });
    expect([c.deadlineMs, c.maxDurationMs, c.settleMs, c.sim.stepDelayMs, c.sim.deadlineMs]).toEqual([ms, ms, ms, 500, ms]);
  });

  it.each([
    ['2s', 2000],
    ['1500ms', 1500],
  ])('check-receiver --timeout %s', (text, ms) => {
    expect(parseCheckReceiverArgs(['--url', 'http://x/', '--timeout', text], { PAYCONNECT_WEBHOOK_SECRET: 'k' })).toMatchObject({
      timeoutMs: ms,
    });
  });

  it.each([
    ['2s', 2000],
    ['1500ms', 1500],
  ])('certify-client durations %s', (text, ms) => {
    const o = parseCertifyClientArgs(['--timeout', text, '--min-poll-interval', text, '--busy-retry-min', text, '--', 'x']);
    expect(o).not.toBe('help');
    if (o === 'help') return;
    expect([o.timeoutMs, o.settings.minPollIntervalMs, o.settings.busyRetryMinMs]).toEqual([ms, ms, ms]);
    const step = parseCertifyClientArgs(['--step-delay', text === '2s' ? '0.5s' : '500ms', '--', 'x']);
    expect(step !== 'help' && step.stepDelayMs).toBe(500);
  });

  it.each([
    ['2s', 2000],
    ['1500ms', 1500],
  ])('sim durations %s', (text, ms) => {
    const { values } = parseCommandLine(SIM_COMMAND, [
      '--step-delay',
      '0.5s',
      '--deadline',
      text,
      '--terminal',
      'manual',
      '--manual-deadline',
      text,
      '--keep-alive',
      text,
    ]);
    const { options } = simOptionsOf(values);
    expect([options.stepDelayMs, options.deadlineMs, options.manualDeadlineMs, options.keepAlive]).toEqual([500, ms, ms, ms]);
  });

  it('each command of the list is its own module, commands/<name>.ts, whose spec bears its name', async () => {
    expect(COMMAND_LIST.map((c) => c.name)).toEqual(Object.keys(SPECS));
    for (const c of COMMAND_LIST) {
      const command = (await c.load()).default;
      expect(command.spec.name, c.name).toBe(c.name);
      expect(command.spec).toBe(SPECS[c.name]!.spec);
    }
  });

  it("verify-pacts takes --deadline as a row of run's table, resolved by resolveConfig", () => {
    const row = VERIFY_PACTS_COMMAND.sections
      .flatMap((s) => s.flags as readonly { name: string; key?: string }[])
      .find((f) => f.name === 'deadline');
    expect(row).toMatchObject({ key: 'deadline', placeholder: '<duration>' });
  });
});
