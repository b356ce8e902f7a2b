/**
 * Secrets on disk, as a user meets them: `pair` keeps the default vault folder out of git, and a
 * vault that group or others may read is refused by `pair`, `unpair` and `run` before anything is
 * sent (exit 2, one line with the chmod that fixes it), and left untouched.
 */
import { chmodSync, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimulatorHandle, startSimulator } from '../src/index.ts';
import { runCli, tempDir } from './support/run-cli.ts';

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ stepDelayMs: 20, deadlineMs: 1500 });
});
afterAll(() => sim.close());

describe('the vault on disk', () => {
  it('pair creates .payconnect/ (0700) with the vault (0600) and a .gitignore of *', async () => {
    const cwd = tempDir('pcc-project-');
    const r = await runCli(['pair', '--target', sim.url, '--integrator-id', sim.integratorId, '--otp', sim.mintOtp()], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const dir = join(cwd, '.payconnect');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'vault.json')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toMatch(/^\*$/m);
  });

  it('pair into a vault that cannot be written stops before the OTP is used (it still pairs afterwards)', async () => {
    const otp = sim.mintOtp();
    const r = await runCli([
      'pair',
      '--target',
      sim.url,
      '--integrator-id',
      sim.integratorId,
      '--otp',
      otp,
      '--vault',
      '/proc/pcc-nowhere/vault.json',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^PCC_VAULT_WRITE: the vault \/proc\/pcc-nowhere\/vault\.json could not be written \(\w+\); nothing was sent, no OTP was used/,
    );
    expect(r.stderr).not.toContain(otp);
    const cwd = tempDir('pcc-project-');
    const again = await runCli(['pair', '--target', sim.url, '--integrator-id', sim.integratorId, '--otp', otp], { cwd });
    expect(again.code, again.stderr).toBe(0);
  });

  it('pair, unpair and run refuse a vault readable by others before sending anything, and leave it as it was', async () => {
    const cwd = tempDir('pcc-project-');
    const paired = await runCli(['pair', '--target', sim.url, '--integrator-id', sim.integratorId, '--otp', sim.mintOtp()], { cwd });
    expect(paired.code, paired.stderr).toBe(0);
    const vault = join(cwd, '.payconnect', 'vault.json');
    chmodSync(vault, 0o644);
    const before = readFileSync(vault, 'utf8');
    const reports = join(cwd, 'reports');
    const tries = [
      ['pair', '--target', sim.url, '--integrator-id', sim.integratorId, '--otp', sim.mintOtp()],
      ['unpair', '--target', sim.url, '--integrator-id', sim.integratorId],
      ['run', '--target', sim.url, '--integrator-id', sim.integratorId, '--profile', 'sandbox', '--reports', reports, '--suite', 'config'],
    ];
    for (const args of tries) {
      const r = await runCli(args, { cwd });
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^PCC_VAULT_INSECURE: vault file ${vault.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is open to group or others \\(mode 0644\\)`,
        ),
      );
      expect(r.stderr).toContain(`chmod 600 ${vault}`);
      expect(r.stderr.trim().split('\n')).toHaveLength(2);
      expect(readFileSync(vault, 'utf8')).toBe(before);
      expect(statSync(vault).mode & 0o777).toBe(0o644);
    }
    expect(existsSync(reports) ? readdirSync(reports) : []).toEqual([]);
  });
});
