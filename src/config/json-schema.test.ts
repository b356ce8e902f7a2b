/** Unit tests of the config's JSON Schema: it compiles, takes what the resolver takes, refuses what it refuses. */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { configJsonSchema } from './json-schema.ts';
import { resolveIn, useTempDirs } from './testing.ts';
import type { UserConfig } from './types.ts';

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default as typeof import('ajv/dist/2020.js').default;
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(configJsonSchema());
const { dirWithConfig } = useTempDirs();

const GOOD: UserConfig = {
  target: 'https://staging.example',
  integratorId: 'acme',
  otp: ['123456'],
  vault: '.payconnect/vault.json',
  profile: 'public',
  terminal: 'observe',
  webhookListen: '0.0.0.0:8080',
  webhookPublicUrl: 'https://tunnel.example',
  deadline: '2m',
  maxDuration: 900000,
  settle: '1s',
  seed: -5,
  suites: ['payment', 'refund'],
  grep: 'slip',
  runs: 'thorough',
  terminals: 4,
  shard: '1/2',
  strict: true,
  allowProduction: false,
  checks: { disable: ['webhook.retried'] },
  maxAmount: 100,
  reports: 'reports',
  html: false,
  sim: { faults: ['webhook.none'], stepDelay: '20ms', deadline: 1500 },
};

describe('configJsonSchema', () => {
  it('takes a config that sets every option, and the resolver takes it too', async () => {
    expect(validate(GOOD), JSON.stringify(validate.errors)).toBe(true);
    const { target: _t, sim: _s, ...forUrl } = GOOD;
    await expect(resolveIn(await dirWithConfig({ ...forUrl, target: 'https://staging.example' }))).resolves.toBeDefined();
  });

  it.each([
    ['an unknown key', { tagret: 'sim' }],
    ['an unknown suite', { suites: ['paymnet'] }],
    ['zero terminals', { terminals: 0 }],
    ['an unknown sim key', { sim: { fault: [] } }],
    ['an OTP of five digits', { otp: ['12345'] }],
    ['a shard that is no fraction', { shard: 'half' }],
    ['a boolean as a string', { strict: 'yes' }],
  ])('refuses %s, as the resolver does', async (_what, config) => {
    expect(validate(config)).toBe(false);
    await expect(resolveIn(await dirWithConfig(config as UserConfig))).rejects.toMatchObject({
      code: expect.stringMatching(/^PCC_(CONFIG_INVALID|USAGE)$/),
    });
  });
});
