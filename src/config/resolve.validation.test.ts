import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UserConfig } from './types.ts';
import { resolveConfig } from './resolve.ts';
import { failure, resolveIn, useTempDirs } from './testing.ts';

const { dirWithConfig, emptyDir } = useTempDirs();

describe('resolveConfig validation: code, option, source and fix', () => {
  it.each([
    [
      "a target URL that holds an operation's path",
      ['--target', 'https://pay.example.com/api/v1/pay-connect/', '--integrator-id', 'x'],
      'invalid target',
      "already holds an operation's path",
    ],
    [
      'a proxy that is no proxy URL',
      ['--proxy', 'ftp://user:pw@proxy:21'],
      'invalid proxy "ftp://***@proxy:21" from flag --proxy',
      'not an http, https or socks5 proxy URL',
    ],
    ['a target that is no URL', ['--target', 'simulator'], 'invalid target "simulator"', 'not a URL'],
    ['a non-http target', ['--target', 'ftp://pay.example.com'], 'invalid target', 'only http and https'],
    ['a bad duration', ['--deadline', '10 minutes'], 'invalid deadline "10 minutes" from flag --deadline', 'not a duration'],
    ['a zero deadline', ['--deadline', '0'], 'invalid deadline', 'at least 1ms'],
    [
      'a bad response-time limit',
      ['--max-response-time', 'quick'],
      'invalid maxResponseTime "quick" from flag --max-response-time',
      'not a duration',
    ],
    ['a bad sim duration', ['--sim-step-delay', 'fast'], 'invalid sim.stepDelay "fast" from flag --sim-step-delay', 'not a duration'],
    [
      'a port out of range',
      ['--webhook-listen', '127.0.0.1:70000'],
      'invalid webhookListen "127.0.0.1:70000" from flag --webhook-listen',
      'port "70000"',
    ],
    ['a bad host', ['--webhook-listen', 'bad host:80'], 'invalid webhookListen', 'not a valid host'],
    ['no port', ['--webhook-listen', 'localhost'], 'invalid webhookListen', 'not host:port'],
    ['a bad suite name', ['--suite', 'payment,paymnet'], 'invalid suites', 'unknown suite "paymnet"; did you mean payment?'],
    ['a non-integer max amount', ['--max-amount', '1.5'], 'invalid maxAmount "1.5" from flag --max-amount', 'not an integer'],
    ['a zero max amount', ['--max-amount', '0'], 'invalid maxAmount', 'must be positive'],
    ['a bad profile', ['--profile', 'prod'], 'invalid profile "prod"', 'not one of sandbox, public'],
    ['a bad OTP', ['--otp', '12a456'], 'invalid otp (not shown) from flag --otp', 'six digits'],
    ['a bad runs value', ['--runs', '0'], 'invalid runs', 'must be positive'],
    ['a bad public URL', ['--webhook-public-url', 'tunnel.example'], 'invalid webhookPublicUrl', 'not a URL'],
    ['a seed out of range', ['--seed', '99999999999'], 'invalid seed', 'must be from'],
    ['negative runs', ['--runs', '-3'], 'invalid runs "-3" from flag --runs', 'must be positive'],
    ['negative terminals', ['--terminals', '-2'], 'invalid terminals "-2"', 'must be from 1 to 32'],
    ['zero terminals', ['--terminals', '0'], 'invalid terminals "0" from flag --terminals', 'must be from 1 to 32'],
    ['a shard that is no fraction', ['--shard', '2'], 'invalid shard "2" from flag --shard', 'not i/n'],
    ['a shard past the count', ['--shard', '3/2'], 'invalid shard', 'part 3 of 2 does not exist'],
  ])('a flag with %s is PCC_USAGE', async (_name, argv, start, reason) => {
    const error = await failure(await emptyDir(), argv);
    expect(error.code).toBe('PCC_USAGE');
    expect(error.message).toContain(start);
    expect(error.message).toContain(reason);
    expect(error.hint).toBeTruthy();
  });

  it('never echoes an OTP', async () => {
    const error = await failure(await emptyDir(), ['--otp', '12345']);
    expect(error.toUserMessage()).not.toContain('12345');
  });

  it('gives the fix in the hint', async () => {
    const error = await failure(await emptyDir(), ['--deadline', 'soon']);
    expect(error.toUserMessage()).toMatch(/fix: write a duration such as 500ms, 30s, 2m/);
  });

  it('rejects the same bad values from the environment as PCC_CONFIG_INVALID, naming the variable', async () => {
    const error = await failure(await emptyDir(), [], { PAYCONNECT_DEADLINE: 'soon' });
    expect(error.code).toBe('PCC_CONFIG_INVALID');
    expect(error.message).toBe('invalid deadline "soon" from environment variable PAYCONNECT_DEADLINE: not a duration');
    const port = await failure(await emptyDir(), [], { PAYCONNECT_WEBHOOK_LISTEN: '127.0.0.1:-1' });
    expect(port.message).toContain('environment variable PAYCONNECT_WEBHOOK_LISTEN');
  });

  it('rejects bad values from the file as PCC_CONFIG_INVALID, naming the file and key', async () => {
    const cwd = await dirWithConfig({ sim: { deadline: 'later' } });
    const error = await failure(cwd);
    expect(error.code).toBe('PCC_CONFIG_INVALID');
    expect(error.message).toBe(
      `invalid sim.deadline "later" from config file ${join(cwd, 'payconnect.config.mjs')} (key sim.deadline): not a duration`,
    );
  });

  it.each([
    ['a string for a boolean', { strict: 'yes' }, 'invalid strict "yes"', 'expected true or false, got a string'],
    ['a string for a list', { suites: 'payment' }, 'invalid suites "payment"', 'expected an array of strings, got a string'],
    ['a string for a number', { maxAmount: '100' }, 'invalid maxAmount "100"', 'expected an integer, got a string'],
    ['a fraction for a number', { maxAmount: 1.5 }, 'invalid maxAmount 1.5', 'not an integer'],
    ['a number in a list', { otp: [123456] }, 'invalid otp', 'expected strings in the array, got a number'],
    ['an object for a string', { target: { url: 'x' } }, 'invalid target', 'expected a string, got an object'],
    ['a boolean for a duration', { deadline: true }, 'invalid deadline true', 'expected a duration string or a number, got a boolean'],
  ])('a config file with %s is PCC_CONFIG_INVALID', async (_name, config, start, reason) => {
    const cwd = await dirWithConfig(config as unknown as UserConfig);
    const error = await failure(cwd);
    expect(error.code).toBe('PCC_CONFIG_INVALID');
    expect(error.message).toContain(start);
    expect(error.message).toContain(`config file ${join(cwd, 'payconnect.config.mjs')}`);
    expect(error.message).toContain(reason);
  });

  it('a file value is not checked when a flag overrides it', async () => {
    const cwd = await dirWithConfig({ deadline: 'later' });
    expect((await resolveIn(cwd, ['--deadline', '5s'])).deadlineMs).toBe(5000);
  });

  it('rejects --target sim with --profile public, naming both', async () => {
    const error = await failure(await emptyDir(), ['--target', 'sim', '--profile', 'public']);
    expect(error.code).toBe('PCC_USAGE');
    expect(error.message).toContain('target "sim" (from flag --target)');
    expect(error.message).toContain('profile "public" (from flag --profile)');
  });

  it('rejects a public profile from the file with the default sim target as PCC_CONFIG_INVALID', async () => {
    const error = await failure(await dirWithConfig({ profile: 'public' }));
    expect(error.code).toBe('PCC_CONFIG_INVALID');
    expect(error.message).toContain('target "sim" (default)');
  });

  it('accepts the public profile with a URL target', async () => {
    const config = await resolveIn(await emptyDir(), [
      '--target',
      'https://pay.example.com',
      '--integrator-id',
      'i',
      '--profile',
      'public',
    ]);
    expect(config.profile).toBe('public');
  });

  it('requires an integrator id for a URL target', async () => {
    const byFlag = await failure(await emptyDir(), ['--target', 'https://pay.example.com']);
    expect(byFlag.code).toBe('PCC_USAGE');
    expect(byFlag.message).toContain('needs an integrator id');
    expect(byFlag.hint).toContain('--integrator-id');
    const byEnv = await failure(await emptyDir(), [], { PAYCONNECT_TARGET: 'https://pay.example.com' });
    expect(byEnv.code).toBe('PCC_CONFIG_INVALID');
  });

  it('refuses a URL-only setting given for the embedded simulator, naming it and asking for --target', async () => {
    const byEnv = await failure(await emptyDir(), [], { PAYCONNECT_INTEGRATOR_ID: 'acme-1' });
    expect(byEnv.code).toBe('PCC_CONFIG_INVALID');
    expect(byEnv.message).toContain('integratorId "acme-1" (from environment variable PAYCONNECT_INTEGRATOR_ID)');
    expect(byEnv.message).toContain('for a URL target');
    expect(byEnv.hint).toContain('--target');
    for (const argv of [
      ['--ca-file', 'ca.pem'],
      ['--proxy', 'http://127.0.0.1:3128'],
      ['--integrator-id', 'x', '--target', 'sim'],
    ]) {
      const byFlag = await failure(await emptyDir(), argv);
      expect(byFlag.code, argv.join(' ')).toBe('PCC_USAGE');
      expect(byFlag.message, argv.join(' ')).toContain(`from flag ${argv[0]}`);
    }
    // A command that never opens the target (merge-reports, report) is not the place to question its settings.
    const merged = await resolveConfig({ argv: [], env: { PAYCONNECT_INTEGRATOR_ID: 'acme-1' }, cwd: await emptyDir(), usesTarget: false });
    expect(merged.target.kind).toBe('sim');
  });

  it('refuses --confirm in a manual session, and a --confirm that is not 0 to 20', async () => {
    const manual = await failure(await emptyDir(), ['--terminal', 'manual', '--confirm', '3']);
    expect(manual.code).toBe('PCC_USAGE');
    expect(manual.message).toMatch(/^confirm 3 \(from flag --confirm\) and terminal "?manual"? .*repeat every step/);
    expect((await failure(await emptyDir(), ['--confirm', '21'])).message).toMatch(/--confirm/);
  });

  it('rejects a fault rate that is not a probability, from a flag or the file', async () => {
    for (const bad of ['0', '1.5', 'half', '-0.2']) {
      const error = await failure(await emptyDir(), ['--sim-fault', 'slip.bad-tag', '--sim-fault-rate', bad]);
      expect(error.code, bad).toBe('PCC_USAGE');
      expect(error.message, bad).toMatch(/--sim-fault-rate/);
      expect(error.hint, bad).toMatch(/probability such as 0\.3/);
    }
    const fromFile = await failure(await dirWithConfig({ sim: { faultRate: 2 } }));
    expect(fromFile.code).toBe('PCC_CONFIG_INVALID');
    expect(fromFile.message).toMatch(/sim\.faultRate/);
  });

  it("refuses a simulator setting beyond the simulator's range, naming the flag, variable or key the user wrote", async () => {
    const byFlag = await failure(await emptyDir(), ['--sim-step-delay', '2s']);
    expect(byFlag.code).toBe('PCC_USAGE');
    expect(byFlag.message).toBe('invalid sim.stepDelay "2s" from flag --sim-step-delay: must be from 0ms to 1s');
    const byEnv = await failure(await emptyDir(), [], { PAYCONNECT_SIM_STEP_DELAY: '2s' });
    expect(byEnv.code).toBe('PCC_CONFIG_INVALID');
    expect(byEnv.message).toBe('invalid sim.stepDelay "2s" from environment variable PAYCONNECT_SIM_STEP_DELAY: must be from 0ms to 1s');
    const cwd = await dirWithConfig({ sim: { stepDelay: 2000 } });
    const byFile = await failure(cwd);
    expect(byFile.code).toBe('PCC_CONFIG_INVALID');
    expect(byFile.message).toBe(
      `invalid sim.stepDelay 2000 from config file ${join(cwd, 'payconnect.config.mjs')} (key sim.stepDelay): must be from 0ms to 1s`,
    );
    expect((await failure(await emptyDir(), ['--sim-deadline', '20s'])).message).toBe(
      'invalid sim.deadline "20s" from flag --sim-deadline: must be from 1ms to 10s',
    );
  });

  it('refuses a simulator deadline of two step delays or less, naming the flag that made it so', async () => {
    const error = await failure(await emptyDir(), ['--sim-step-delay', '1s']);
    expect(error.code).toBe('PCC_USAGE');
    expect(error.message).toMatch(
      /^sim\.deadline 1500 \(default\) and sim\.stepDelay 1000 \(from flag --sim-step-delay\): .*more than two step delays/,
    );
    expect(error.hint).toContain('--sim-deadline');
    expect((await resolveIn(await emptyDir(), ['--sim-step-delay', '1s', '--sim-deadline', '2001ms'])).sim).toMatchObject({
      stepDelayMs: 1000,
      deadlineMs: 2001,
    });
  });

  it('rejects --sim-* flags with another target, but lets file sim settings ride along', async () => {
    const error = await failure(await emptyDir(), ['--target', 'pact', '--sim-fault', 'slip.bad-tag']);
    expect(error.code).toBe('PCC_USAGE');
    expect(error.message).toContain('simulator settings apply to --target sim only');
    const cwd = await dirWithConfig({ sim: { faults: ['slip.bad-tag'] } });
    expect((await resolveIn(cwd, ['--target', 'pact'])).sim.faults).toEqual(['slip.bad-tag']);
  });

  it('rejects an unknown flag before reading anything else', async () => {
    const error = await failure(await dirWithConfig('throw new Error("must not be imported")'), ['--max-amout', '5']);
    expect(error.code).toBe('PCC_USAGE');
    expect(error.message).toBe('unknown flag --max-amout; did you mean --max-amount?');
  });

  it('rejects a config file that throws on import', async () => {
    const cwd = await dirWithConfig('throw new Error("broken config");');
    const error = await failure(cwd);
    expect(error.code).toBe('PCC_CONFIG_INVALID');
    expect(error.message).toContain('broken config');
    expect(error.message).toContain(join(cwd, 'payconnect.config.mjs'));
  });

  it('rejects a missing explicit config file', async () => {
    const cwd = await emptyDir();
    const error = await failure(cwd, ['--config', 'missing.config.ts']);
    expect(error.code).toBe('PCC_USAGE');
    expect(error.message).toContain('invalid config "missing.config.ts" from flag --config');
    expect(error.message).toContain(`${join(cwd, 'missing.config.ts')} does not exist`);
  });
});
