import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from './defaults.ts';
import { defineConfig, resolveConfig, SUITE_NAMES, type UserConfig } from './index.ts';
import { CONFIG_INDEX, resolveIn, useTempDirs } from './testing.ts';

const { dirWithConfig, emptyDir } = useTempDirs();

describe('resolveConfig defaults', () => {
  it('resolves every option from the defaults when nothing is given', async () => {
    const cwd = await emptyDir();
    const config = await resolveIn(cwd);
    expect({ ...config, seed: 0 }).toEqual({
      target: { kind: 'sim' },
      integratorId: 'sim-integrator',
      otps: [],
      vaultPath: join(cwd, '.payconnect/vault.json'),
      profile: 'sandbox',
      terminal: 'auto',
      webhookListen: { host: '127.0.0.1', port: 0 },
      webhookPublicUrl: undefined,
      webhookTls: undefined,
      deadlineMs: 10_000,
      seed: 0,
      suites: [],
      grep: undefined,
      settleMs: undefined,
      maxDurationMs: 300_000,
      strict: false,
      quiet: false,
      reportsDir: join(cwd, 'reports'),
      allowProduction: false,
      maxAmount: 100,
      html: true,
      runs: 50,
      terminals: availableParallelism() > 1 ? 8 : 2,
      shard: undefined,
      labels: {},
      resume: false,
      baseline: undefined,
      confirm: 0,
      requireCoverage: [],
      coverageExclude: [],
      signKey: undefined,
      sim: { faults: [], faultRate: 1, stepDelayMs: 20, deadlineMs: 1500, terminal: 'auto', liberal: false },
      disabledChecks: [],
      transport: {},
      configFile: undefined,
      argv: [],
      sources: expect.any(Object),
    });
    expect(Object.values(config.sources).every((s) => s === 'default')).toBe(true);
    expect(Object.keys(config.sources)).toHaveLength(46);
  });

  it('defaults the deadline to 120s and leaves the integrator id unset for a pact target', async () => {
    const config = await resolveIn(await emptyDir(), ['--target', 'pact']);
    expect(config.deadlineMs).toBe(DEFAULTS.deadlineMs);
    expect(config.deadlineMs).toBe(120_000);
    expect(config.integratorId).toBeUndefined();
  });

  it('draws a random 32-bit seed when none is given, and reports it', async () => {
    const cwd = await emptyDir();
    const seeds = await Promise.all(Array.from({ length: 5 }, () => resolveIn(cwd).then((c) => c.seed)));
    for (const seed of seeds) expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31).toBe(true);
    expect(new Set(seeds).size).toBeGreaterThan(1);
  });

  it('keeps a given seed, negative ones included', async () => {
    const cwd = await emptyDir();
    expect((await resolveIn(cwd, ['--seed', '42'])).seed).toBe(42);
    expect((await resolveIn(cwd, ['--seed=-7'])).seed).toBe(-7);
    expect((await resolveIn(cwd, [], { PAYCONNECT_SEED: '4294967295' })).seed).toBe(2 ** 32 - 1);
    expect((await resolveIn(cwd, ['--seed', '42'])).sources.seed).toBe('flag');
  });
});

describe('resolveConfig precedence: flag > env > file > default', () => {
  it('takes each option from the highest source that sets it', async () => {
    const cwd = await dirWithConfig({ terminal: 'manual', deadline: '1m', maxAmount: 300, strict: true });
    const config = await resolveIn(cwd, ['--terminal', 'observe'], { PAYCONNECT_TERMINAL: 'auto', PAYCONNECT_DEADLINE: '45s' });
    expect(config.terminal).toBe('observe');
    expect(config.deadlineMs).toBe(45_000);
    expect(config.maxAmount).toBe(300);
    expect(config.strict).toBe(true);
    expect(config.runs).toBe(50);
    expect(config.sources).toMatchObject({
      terminal: 'flag',
      deadline: 'env',
      maxAmount: 'file',
      strict: 'file',
      runs: 'default',
      config: 'default',
    });
    expect(config.configFile).toBe(join(cwd, 'payconnect.config.mjs'));
  });

  it('replaces lists as a whole instead of merging them', async () => {
    const cwd = await dirWithConfig({ suites: ['payment'], otp: ['111111'] });
    const config = await resolveIn(cwd, ['--suite', 'refund', '--suite', 'cancel,auth'], {
      PAYCONNECT_SUITE: 'pairing',
      PAYCONNECT_OTP: '222222, 333333',
    });
    expect(config.suites).toEqual(['refund', 'cancel', 'auth']);
    expect(config.otps).toEqual(['222222', '333333']);
    expect(config.sources.suites).toBe('flag');
    expect(config.sources.otp).toBe('env');
  });

  it('lets a flag turn off a boolean the file turned on', async () => {
    const cwd = await dirWithConfig({ strict: true, html: true });
    const config = await resolveIn(cwd, ['--no-strict', '--no-html']);
    expect([config.strict, config.html]).toEqual([false, false]);
  });

  it('reads --no-html and PAYCONNECT_NO_HTML', async () => {
    const cwd = await emptyDir();
    expect((await resolveIn(cwd, ['--no-html'])).html).toBe(false);
    expect((await resolveIn(cwd, [], { PAYCONNECT_NO_HTML: '1' })).html).toBe(false);
    expect((await resolveIn(cwd, ['--html'], { PAYCONNECT_NO_HTML: '1' })).html).toBe(true);
  });

  it('resolves sim settings, durations and runs presets', async () => {
    const cwd = await dirWithConfig({ sim: { stepDelay: 0, deadline: '2s' }, runs: 'thorough' });
    const config = await resolveIn(cwd, ['--sim-fault', 'slip.bad-currency', '--sim-fault', 'token.type-lowercase'], {
      PAYCONNECT_SIM_DEADLINE: '750ms',
    });
    expect(config.sim).toEqual({
      faults: ['slip.bad-currency', 'token.type-lowercase'],
      faultRate: 1,
      stepDelayMs: 0,
      deadlineMs: 750,
      terminal: 'auto',
      liberal: false,
    });
    expect((await resolveIn(cwd, ['--sim-fault', 'slip.bad-tag', '--sim-fault-rate', '0.3'])).sim.faultRate).toBe(0.3);
    expect((await resolveIn(await dirWithConfig({ sim: { faultRate: 0.5 } }))).sim.faultRate).toBe(0.5);
    expect((await resolveIn(cwd, ['--require-coverage', 'operations,statuses', '--require-coverage', 'events'])).requireCoverage).toEqual([
      'operations',
      'statuses',
      'events',
    ]);
    expect((await resolveIn(await dirWithConfig({ coverage: { require: ['clauses'] } }))).requireCoverage).toEqual(['clauses']);
    await expect(resolveIn(cwd, ['--require-coverage', 'operation'])).rejects.toMatchObject({
      message: expect.stringContaining('operation'),
    });
    // coverage.exclude: an array of { item, reason } in a file; `item: reason` texts from a flag (repeated or ;-separated).
    const exclude = [{ item: 'getToken 500', reason: 'a server error cannot be caused from outside, not even by a bad body' }];
    expect((await resolveIn(await dirWithConfig({ coverage: { exclude } }))).coverageExclude).toEqual(exclude);
    expect(
      (
        await resolveIn(cwd, [
          '--coverage-exclude',
          'getToken 500: a server error, caused by nobody; pair 401: no document says when',
          '--coverage-exclude',
          'operation INITIATED -> FAILED: via IN_PROGRESS',
        ])
      ).coverageExclude,
    ).toEqual([
      { item: 'getToken 500', reason: 'a server error, caused by nobody' },
      { item: 'pair 401', reason: 'no document says when' },
      { item: 'operation INITIATED -> FAILED', reason: 'via IN_PROGRESS' },
    ]);
    await expect(resolveIn(await dirWithConfig({ coverage: { exclude: [{ item: 'getToken 500', reason: ' ' }] } }))).rejects.toMatchObject({
      code: 'PCC_CONFIG_INVALID',
      message: expect.stringContaining('gives no reason'),
    });
    await expect(
      resolveIn(await dirWithConfig({ coverage: { exclude: [{ item: 'getToken 500', reson: 'x' }] } } as never)),
    ).rejects.toMatchObject({ message: expect.stringContaining('unknown key reson; did you mean reason') });
    await expect(resolveIn(await dirWithConfig({ coverage: { exclude: ['getToken 500'] } } as never))).rejects.toMatchObject({
      message: expect.stringContaining('not { item, reason }'),
    });
    await expect(resolveIn(cwd, ['--coverage-exclude', 'getToken 500'])).rejects.toMatchObject({
      code: 'PCC_USAGE',
      message: expect.stringContaining('is not "item: reason"'),
    });
    expect(config.runs).toBe(1000);
    expect((await resolveIn(cwd, ['--runs', '7'])).runs).toBe(7);
    expect(config.sources).toMatchObject({ 'sim.faults': 'flag', 'sim.stepDelay': 'file', 'sim.deadline': 'env' });
  });

  it('resolves checks.disable from the file, the flag (repeatable) and the environment', async () => {
    const cwd = await dirWithConfig({ checks: { disable: ['webhook.retried'] } });
    expect((await resolveIn(cwd)).disabledChecks).toEqual(['webhook.retried']);
    const flagged = await resolveIn(cwd, ['--disable-check', 'response.enum', '--disable-check', 'invariant.currency']);
    expect(flagged.disabledChecks).toEqual(['response.enum', 'invariant.currency']);
    expect(flagged.sources['checks.disable']).toBe('flag');
    expect((await resolveIn(cwd, [], { PAYCONNECT_DISABLE_CHECK: 'a.b,c.d' })).disabledChecks).toEqual(['a.b', 'c.d']);
    await expect(resolveIn(await dirWithConfig({ checks: { disabel: ['x.y'] } } as never))).rejects.toMatchObject({
      code: 'PCC_CONFIG_INVALID',
      message: expect.stringContaining('checks.disabel'),
    });
    await expect(resolveIn(await dirWithConfig({ checks: ['x.y'] } as never))).rejects.toMatchObject({
      code: 'PCC_CONFIG_INVALID',
      message: expect.stringContaining('invalid checks'),
    });
    await expect(resolveIn(cwd, ['--disable-check', 'Not A Check'])).rejects.toMatchObject({
      message: expect.stringContaining('is not a check id'),
    });
  });

  it('normalizes a URL target to its origin and keeps the integrator id', async () => {
    const config = await resolveIn(await emptyDir(), ['--target', 'https://Pay.Example.com:443/', '--integrator-id', 'acme-1']);
    expect(config.target).toEqual({ kind: 'url', baseUrl: 'https://pay.example.com' });
    expect(config.integratorId).toBe('acme-1');
    // A sandbox driven by amount expires a waiting transaction within 10 s (sandbox.md).
    expect(config.deadlineMs).toBe(20_000);
    const observed = await resolveIn(await emptyDir(), [
      '--target',
      'https://pay.example.com',
      '--integrator-id',
      'acme-1',
      '--terminal',
      'observe',
    ]);
    expect(observed.deadlineMs).toBe(120_000);
    const publicProfile = await resolveIn(await emptyDir(), [
      '--target',
      'https://pay.example.com',
      '--integrator-id',
      'acme-1',
      '--profile',
      'public',
    ]);
    expect(publicProfile.deadlineMs).toBe(120_000);
  });

  it('resolves paths from flags against the cwd and paths from the file against its folder', async () => {
    const fileDir = await dirWithConfig({ vault: 'secrets/v.json', reports: '/abs/reports' }, 'elsewhere.mjs');
    const cwd = await emptyDir();
    const config = await resolveIn(cwd, ['--config', join(fileDir, 'elsewhere.mjs')]);
    expect(config.vaultPath).toBe(join(fileDir, 'secrets/v.json'));
    expect(config.reportsDir).toBe('/abs/reports');
    expect(config.sources.config).toBe('flag');
    expect((await resolveIn(cwd, ['--reports', 'out'])).reportsDir).toBe(join(cwd, 'out'));
  });

  it('uses the file named by PAYCONNECT_CONFIG, and --config over it', async () => {
    const a = await dirWithConfig({ terminal: 'manual' });
    const b = await dirWithConfig({ terminal: 'observe' });
    const cwd = await emptyDir();
    const env = { PAYCONNECT_CONFIG: join(a, 'payconnect.config.mjs') };
    expect((await resolveIn(cwd, [], env)).terminal).toBe('manual');
    expect((await resolveIn(cwd, ['--config', join(b, 'payconnect.config.mjs')], env)).terminal).toBe('observe');
  });

  it('loads a payconnect.config.ts written with defineConfig', async () => {
    const cwd = await dirWithConfig(
      [
        `import { defineConfig } from ${JSON.stringify(CONFIG_INDEX)};`,
        `const otp: string[] = ['123456'];`,
        `export default defineConfig({ target: 'http://127.0.0.1:8080', integratorId: 'ts-id', otp, webhookListen: '[::1]:9000' });`,
      ].join('\n'),
      'payconnect.config.ts',
    );
    const config = await resolveIn(cwd);
    expect(config.target).toEqual({ kind: 'url', baseUrl: 'http://127.0.0.1:8080' });
    expect(config.integratorId).toBe('ts-id');
    expect(config.otps).toEqual(['123456']);
    expect(config.webhookListen).toEqual({ host: '::1', port: 9000 });
    expect(config.configFile).toBe(join(cwd, 'payconnect.config.ts'));
  });
});

describe('defineConfig', () => {
  it('returns its argument, typed', () => {
    const config = { target: 'sim', suites: [...SUITE_NAMES] } satisfies UserConfig;
    expect(defineConfig(config)).toBe(config);
    // @ts-expect-error an unknown key is a type error in a config file
    defineConfig({ tagret: 'sim' });
  });
});

describe('--grep', () => {
  it('keeps a valid regular expression and refuses an invalid one with the flag named', async () => {
    const cwd = process.cwd();
    expect((await resolveConfig({ argv: ['--grep', 'tip|busy'], env: {}, cwd })).grep).toBe('tip|busy');
    expect((await resolveConfig({ argv: [], env: { PAYCONNECT_GREP: 'cancel' }, cwd })).grep).toBe('cancel');
    await expect(resolveConfig({ argv: ['--grep', '('], env: {}, cwd })).rejects.toMatchObject({
      code: 'PCC_USAGE',
      message: expect.stringMatching(/--grep.*not a regular expression/),
    });
  });
});

describe('SUITE_NAMES', () => {
  it('lists exactly the suite folders of suites/ that hold *.suite.ts files', async () => {
    const { readdirSync } = await import('node:fs');
    const root = new URL('../../suites/', import.meta.url);
    const folders = readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && readdirSync(new URL(`${d.name}/`, root)).some((f) => f.endsWith('.suite.ts')))
      .map((d) => d.name);
    expect([...SUITE_NAMES].sort()).toEqual(folders.sort());
  });
});

describe('terminals and shards', () => {
  it("takes --terminals, PAYCONNECT_TERMINALS and a file's terminals, and parses --shard i/n", async () => {
    expect((await resolveIn(await emptyDir(), ['--terminals', '3', '--shard', '2/3'])).terminals).toBe(3);
    expect((await resolveIn(await emptyDir(), ['--shard', ' 2 / 3 '])).shard).toEqual({ index: 2, count: 3 });
    const fromEnv = await resolveIn(await emptyDir(), [], { PAYCONNECT_TERMINALS: '6' });
    expect([fromEnv.terminals, fromEnv.sources.terminals]).toEqual([6, 'env']);
    const fromFile = await resolveIn(await dirWithConfig({ terminals: 2, shard: '1/4' }));
    expect([fromFile.terminals, fromFile.shard, fromFile.sources.terminals]).toEqual([2, { index: 1, count: 4 }, 'file']);
    const url = await resolveIn(await emptyDir(), ['--target', 'https://sandbox.example.com', '--integrator-id', 'i-1']);
    expect(url.terminals).toBe(16);
  });
});

describe('negative numbers', () => {
  it("takes a negative value after a flag as its value (--seed -5), for the flag's own check to judge", async () => {
    expect((await resolveIn(await emptyDir(), ['--seed', '-5'])).seed).toBe(-5);
    expect((await resolveIn(await emptyDir(), ['--seed=-6'])).seed).toBe(-6);
  });
});

describe('labels', () => {
  it('takes key=value from repeated flags, the environment (comma-separated) and the config file, flag first', async () => {
    expect((await resolveIn(await emptyDir(), ['--label', 'firmware=4.2.1', '--label', 'terminal = SN-0042'])).labels).toEqual({
      firmware: '4.2.1',
      terminal: 'SN-0042',
    });
    expect((await resolveIn(await emptyDir(), [], { PAYCONNECT_LABEL: 'firmware=4.2.1,tester=Ana Lima' })).labels).toEqual({
      firmware: '4.2.1',
      tester: 'Ana Lima',
    });
    const cwd = await dirWithConfig({ labels: { firmware: '4.2.0', site: 'lab 2' } });
    expect((await resolveIn(cwd)).labels).toEqual({ firmware: '4.2.0', site: 'lab 2' });
    expect((await resolveIn(cwd, ['--label', 'firmware=4.2.1'])).labels).toEqual({ firmware: '4.2.1' });
    expect((await resolveIn(await dirWithConfig({ labels: ['a=1', 'b=x=y'] }))).labels).toEqual({ a: '1', b: 'x=y' });
  });

  it.each([
    [['--label', 'firmware'], /not key=value/],
    [['--label', '=4.2.1'], /label key ""/],
    [['--label', 'firm ware=1'], /label key "firm ware"/],
    [['--label', 'firmware='], /needs a value/],
    [['--label', 'a=1', '--label', 'a=2'], /given twice/],
  ])('refuses %j with one message naming the flag', async (argv, message) => {
    const err = await resolveIn(await emptyDir(), argv).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(message);
    expect(err?.message).toMatch(/--label/);
  });

  it('refuses a label of the config file that is not a string', async () => {
    const err = await resolveIn(await dirWithConfig({ labels: { firmware: 4 } as never })).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/label firmware is a number, not a string/);
  });
});

describe('--sim-terminal', () => {
  it('defaults to auto; manual implies --terminal manual', async () => {
    expect((await resolveIn(await emptyDir())).sim.terminal).toBe('auto');
    const config = await resolveIn(await emptyDir(), ['--sim-terminal', 'manual']);
    expect(config.sim.terminal).toBe('manual');
    expect(config.terminal).toBe('manual');
    expect((await resolveIn(await emptyDir(), ['--sim-terminal', 'manual', '--terminal', 'manual'])).terminal).toBe('manual');
  });

  it('refuses a manual virtual terminal driven in auto mode, and an unknown mode', async () => {
    const conflict = await resolveIn(await emptyDir(), ['--sim-terminal', 'manual', '--terminal', 'auto']).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(conflict?.message).toMatch(/manual/);
    const bad = await resolveIn(await emptyDir(), ['--sim-terminal', 'robot']).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(bad?.message).toMatch(/sim-terminal/);
  });
});

describe('--sim-liberal', () => {
  it('is off by default; on with the flag, PAYCONNECT_SIM_LIBERAL or sim.liberal; a flag beside a URL target is refused', async () => {
    expect((await resolveIn(await emptyDir())).sim.liberal).toBe(false);
    expect((await resolveIn(await emptyDir(), ['--sim-liberal'])).sim.liberal).toBe(true);
    expect((await resolveIn(await emptyDir(), [], { PAYCONNECT_SIM_LIBERAL: 'true' })).sim.liberal).toBe(true);
    expect((await resolveIn(await dirWithConfig({ sim: { liberal: true } }))).sim.liberal).toBe(true);
    const stray = await resolveIn(await emptyDir(), ['--sim-liberal', '--target', 'http://127.0.0.1:9', '--integrator-id', 'x']).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(stray?.message).toMatch(/simulator settings apply to --target sim only/);
  });
});

describe('--resume', () => {
  it('is off by default and on with the flag or PAYCONNECT_RESUME', async () => {
    expect((await resolveIn(await emptyDir())).resume).toBe(false);
    expect((await resolveIn(await emptyDir(), ['--resume'])).resume).toBe(true);
    expect((await resolveIn(await emptyDir(), [], { PAYCONNECT_RESUME: '1' })).resume).toBe(true);
  });
});
