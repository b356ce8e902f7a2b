import { describe, expect, it } from 'vitest';
import { main } from './main.ts';

function io() {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (s: string) => void (out.stdout += s), stderr: (s: string) => void (out.stderr += s), interactive: false } };
}

describe('the command table', () => {
  it('an unknown command (even an Object method name) is a usage error listing every command', async () => {
    for (const cmd of ['nope', 'toString', '__proto__']) {
      const { out, io: x } = io();
      expect(await main([cmd], {}, x)).toBe(2);
      expect(out.stderr).toContain(`PCC_USAGE: unknown command "${cmd}"`);
      expect(out.stderr).toContain(
        'run, sim, pair, unpair, report, merge-reports, compare, rejudge, verify-certificate, baseline, ' +
          'verify-pacts, publish-pacts, check-pact, check-receiver, certify-client',
      );
    }
  });

  it('help is exit 0, no command exit 2, both print the usage', async () => {
    const a = io();
    expect(await main(['help'], {}, a.io)).toBe(0);
    expect(a.out.stdout).toMatch(/^usage: payconnect-conformance <command>/);
    const b = io();
    expect(await main([], {}, b.io)).toBe(2);
    expect(b.out.stdout).toContain('verify-pacts');
  });

  it('--help of every command prints its usage and exits 0', async () => {
    for (const cmd of [
      'run',
      'sim',
      'pair',
      'unpair',
      'report',
      'merge-reports',
      'verify-pacts',
      'publish-pacts',
      'check-pact',
      'check-receiver',
      'certify-client',
    ]) {
      const { out, io: x } = io();
      expect(await main([cmd, '--help'], {}, x), cmd).toBe(0);
      expect(out.stdout.toLowerCase(), cmd).toMatch(/^usage: /);
      expect(out.stderr, cmd).toBe('');
    }
  });

  it('a toolkit error of a command is one clear message and exit 2', async () => {
    const { out, io: x } = io();
    expect(await main(['pair', '--target', 'ftp://x'], {}, x)).toBe(2);
    // pair's target is resolved as run's: the message names the value and where it came from.
    expect(out.stderr).toMatch(/^PCC_USAGE: invalid target "ftp:\/\/x" from flag --target: /);
  });
});
