import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../config/index.ts';
import { ToolkitError } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { defaultDeadlineMs, defaultPollMs, openTarget } from './open-target.ts';

const sandbox = resolveProfile('sandbox');

/** A loopback port nobody listens on now. */
function deadPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return e instanceof ToolkitError ? e.code : String(e);
  }
}

describe('openTarget', () => {
  it('starts the simulator on loopback with a throw-away vault that closing removes', async () => {
    const t = await openTarget({ kind: 'sim', profile: sandbox });
    try {
      expect(t.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(t.integratorId).toBe(DEFAULTS.simIntegratorId);
      expect(t.sandbox && t.mintOtps).toBe(true);
      expect(t.mintOtp!()).toMatch(/^\d{6}$/);
      expect(existsSync(dirname(t.vaultPath))).toBe(true);
      const res = await fetch(`${t.baseUrl}/v1/pay-connect/config/`);
      expect(res.status).toBeGreaterThanOrEqual(400); // answers: no token sent
    } finally {
      await t.close();
    }
    expect(existsSync(dirname(t.vaultPath))).toBe(false);
  });

  it('opens a URL the simulator serves, trailing slashes dropped; a sandbox profile makes it a sandbox', async () => {
    const sim = await openTarget({ kind: 'sim', profile: sandbox });
    try {
      const t = await openTarget({ kind: 'url', baseUrl: `${sim.baseUrl}//`, integratorId: 'i-1', vaultPath: 'v.json', profile: sandbox });
      expect(t.baseUrl).toBe(sim.baseUrl);
      expect(t.vaultPath).toMatch(/\/v\.json$/);
      expect(t.mintOtp).toBeUndefined();
      expect(t.sandbox).toBe(true);
      const pub = await openTarget({ kind: 'url', baseUrl: sim.baseUrl, integratorId: 'i-1', profile: resolveProfile('public') });
      expect(pub.sandbox || pub.mintOtps).toBe(false);
    } finally {
      await sim.close();
    }
  });

  it('refuses what no command may open: no integrator id, a production host, a dead address, not a URL', async () => {
    const dead = `http://127.0.0.1:${await deadPort()}`;
    expect(await codeOf(openTarget({ kind: 'url', baseUrl: dead, profile: sandbox }))).toBe('PCC_USAGE');
    expect(
      await codeOf(
        openTarget({ kind: 'url', baseUrl: 'https://api-payment.lab4pay.com', integratorId: 'i', profile: resolveProfile('public') }),
      ),
    ).toBe('PCC_TARGET_PRODUCTION');
    expect(await codeOf(openTarget({ kind: 'url', baseUrl: dead, integratorId: 'i', profile: sandbox }))).toBe('PCC_TARGET_UNREACHABLE');
    expect(await codeOf(openTarget({ kind: 'url', baseUrl: 'ftp://x', integratorId: 'i', profile: sandbox }))).toBe('PCC_USAGE');
  });

  it('one set of defaults by kind of target, the same as run --deadline', () => {
    expect(defaultDeadlineMs('sim')).toBe(DEFAULTS.deadlineSimMs);
    expect(defaultDeadlineMs('url')).toBe(DEFAULTS.deadlineMs);
    expect(defaultPollMs('sim')).toBeLessThan(defaultPollMs('url'));
  });
});

describe('openTarget with the simulator', () => {
  it('passes on the simulator refusing a setting (an unknown fault) as it is, naming what to fix', async () => {
    expect(await codeOf(openTarget({ kind: 'sim', profile: sandbox, sim: { faults: ['no.such-fault'] } }))).toBe('PCC_CONFIG_INVALID');
  });
});
