/**
 * The package as a user installs it: `npm pack`, installed into a fresh CommonJS npm project in a temp
 * folder, where a payconnect.config.ts that imports defineConfig type-checks (and a wrong one does
 * not), an integrator's own suite imports the runtime from `payconnect-conformance/suite` and runs
 * on it under vitest (with allure-vitest as reporter, its results carry the scenario's evidence and no
 * secret), and `npx payconnect-conformance run --suite config` passes against the embedded
 * simulator, running the built JavaScript. Dependencies come from the npm cache that `npm ci` filled.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './support/run-cli.ts';

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
  });

describe('the package', () => {
  it('installs into a CommonJS project, type-checks its config, and runs', () => {
    const project = tempDir('pcc-consumer-');
    // --ignore-scripts: the build is there already (npm ci ran prepare); building again would
    // replace dist/ under the other self-tests' feet.
    npm(['pack', '--ignore-scripts', '--pack-destination', project], ROOT);
    const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'))!;
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'a-point-of-sale', version: '1.0.0', type: 'commonjs', private: true }),
    );
    npm(['install', '--prefer-offline', '--no-save', `./${tarball}`], project);

    writeFileSync(
      join(project, 'payconnect.config.ts'),
      `import { defineConfig } from 'payconnect-conformance';\nexport default defineConfig({ suites: ['config'], html: false, terminals: 2 });\n`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['payconnect.config.ts'],
      }),
    );
    const typed = spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8' });
    expect(typed.status, typed.stdout + typed.stderr).toBe(0);
    writeFileSync(
      join(project, 'wrong.config.ts'),
      `import { defineConfig } from 'payconnect-conformance';\nexport default defineConfig({ suites: ['paymnet'] });\n`,
    );
    const wrong = spawnSync(
      process.execPath,
      [
        TSC,
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--strict',
        '--noEmit',
        '--skipLibCheck',
        join(project, 'wrong.config.ts'),
      ],
      { encoding: 'utf8', cwd: project },
    );
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toContain('Did you mean \'"payment"\'?');

    // An integrator's own suite: the runtime comes from the `./suite` entry point, typed; its internals
    // (Harness, OtpSource, RUN_CONTEXT_KEY) are no part of the main entry.
    writeFileSync(join(project, 'own.suite.test.ts'), OWN_SUITE);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['payconnect.config.ts', 'own.suite.test.ts'],
      }),
    );
    const ownTyped = spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8' });
    expect(ownTyped.status, ownTyped.stdout + ownTyped.stderr).toBe(0);
    writeFileSync(join(project, 'internal.ts'), `import { Harness } from 'payconnect-conformance';\nexport const h: unknown = Harness;\n`);
    const internal = spawnSync(
      process.execPath,
      [
        TSC,
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--strict',
        '--noEmit',
        '--skipLibCheck',
        join(project, 'internal.ts'),
      ],
      { encoding: 'utf8', cwd: project },
    );
    expect(internal.stdout).toContain("has no exported member 'Harness'");
    // It runs on the package's runtime: a need the run does not meet skips the scenario with its reason.
    writeFileSync(join(project, 'vitest.config.mjs'), OWN_SUITE_CONFIG);
    const own = spawnSync(join(project, 'node_modules', '.bin', 'vitest'), ['run', '--reporter=json', '--outputFile=own.json'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', VITEST: undefined, VITEST_POOL_ID: undefined, VITEST_WORKER_ID: undefined },
    });
    expect(own.status, own.stdout + own.stderr).toBe(0);
    const results = (
      JSON.parse(readFileSync(join(project, 'own.json'), 'utf8')) as {
        testResults: { assertionResults: { title: string; status: string }[] }[];
      }
    ).testResults.flatMap((r) => r.assertionResults);
    expect(results.map((r) => [r.title, r.status])).toEqual([
      ['an integrator scenario that needs state', 'skipped'],
      ['an integrator scenario that runs anywhere', 'passed'],
    ]);
    // With allure-vitest as its reporter, its own scenario against the embedded simulator leaves our
    // evidence in allure-results: the feature, the clause, a step per exchange, and no secret.
    writeFileSync(join(project, 'allure.suite.test.ts'), ALLURE_SUITE);
    writeFileSync(join(project, 'sim.setup.mjs'), SIM_SETUP);
    writeFileSync(join(project, 'vitest.allure.config.mjs'), ALLURE_CONFIG);
    const allured = spawnSync(join(project, 'node_modules', '.bin', 'vitest'), ['run', '--config', 'vitest.allure.config.mjs'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', VITEST: undefined, VITEST_POOL_ID: undefined, VITEST_WORKER_ID: undefined },
    });
    expect(allured.status, allured.stdout + allured.stderr).toBe(0);
    expectAllureEvidence(project);

    const run = spawnSync(join(project, 'node_modules', '.bin', 'payconnect-conformance'), ['run'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', VITEST: undefined, VITEST_POOL_ID: undefined, VITEST_WORKER_ID: undefined },
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(project, 'reports', 'summary.json'), 'utf8')) as {
      verdict: string;
      counts: { tests: number; passed: number };
    };
    expect(summary.verdict).toBe('pass');
    expect(summary.counts.passed).toBe(summary.counts.tests);
    expect(run.stdout).toMatch(/^ {2}✓ config > /m);
  }, 240_000);
});

type AllureStep = { name: string; steps: AllureStep[]; attachments: { name: string }[] };
type AllureResult = AllureStep & {
  labels: { name: string; value: string }[];
  links: { url: string; name?: string }[];
  parameters: { name: string; value: string }[];
};

/** What allure-vitest wrote of the integrator's scenario: our evidence, and none of the simulator's secrets anywhere. */
function expectAllureEvidence(project: string): void {
  const dir = join(project, 'allure-results');
  const files = readdirSync(dir);
  const results = files
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as AllureResult);
  const result = results.find((r) => r.name === 'an integrator scenario that reads the configuration');
  expect(result, JSON.stringify(results.map((r) => r.name))).toBeDefined();
  expect(result!.labels).toContainEqual({ name: 'feature', value: 'own' });
  expect(result!.links).toContainEqual(expect.objectContaining({ url: 'spec#configuration' }));
  expect(result!.parameters).toContainEqual(expect.objectContaining({ name: 'terminal', value: 'auto' }));
  // The simulator logged each request it answered (its control endpoints aside): a step each.
  const served = readFileSync(join(project, 'sim-requests.log'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('/v1/'));
  const exchanges = result!.steps.filter((st) => /^[A-Z]+ \/v1\//.test(st.name));
  expect(exchanges.length).toBeGreaterThanOrEqual(served.length);
  expect(exchanges.map((st) => st.name)).toContainEqual(expect.stringMatching(/^GET \/v1\/pay-connect\/config\/ → 200$/));
  for (const st of exchanges)
    expect(
      st.steps
        .flatMap((a) => a.attachments)
        .concat(st.attachments)
        .map((a) => a.name),
      st.name,
    ).toEqual(expect.arrayContaining(['request', 'response']));
  const secrets = JSON.parse(readFileSync(join(project, 'sim-secrets.json'), 'utf8')) as string[];
  expect(secrets.length).toBeGreaterThan(0);
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    for (const secret of secrets) expect(text.includes(secret), `${f} holds a secret the simulator issued`).toBe(false);
  }
}

/** An integrator's scenario that talks to the service: pairing, a token, the configuration. */
const ALLURE_SUITE = `import { scenario } from 'payconnect-conformance/suite';
scenario('an integrator scenario that reads the configuration', { capability: 'own', clause: 'spec#configuration' }, async (t) => {
  const p = await t.harness.primary(t.scope);
  const res = await t.scope.call(p, 'getConfig');
  t.scope.check('request.accepted', res.exchange);
});
`;

/** The embedded simulator for the integrator's run, and the run context on it; it leaves what it served and the secrets it issued. */
const SIM_SETUP = `import { writeFileSync } from 'node:fs';
import { startSimulator } from 'payconnect-conformance';
export default async function ({ provide }) {
  const requests = [];
  const sim = await startSimulator({ seed: 7, onRequest: (line) => requests.push(line) });
  provide('payconnect', { targetKind: 'sim', baseUrl: sim.url, integratorId: sim.integratorId, profile: 'sandbox', strict: false, terminal: 'auto', interactive: false,
    deadlineMs: 3000, settleMs: 200, webhookGraceMs: 1000, seed: 1, runs: 1, vaultPath: 'vault.json', otps: [], mintOtps: true, webhookListen: { host: '127.0.0.1', port: 0 },
    maxAmount: 100000, sandbox: true, timeoutMs: 10000, workers: 1 });
  return async () => {
    writeFileSync('sim-requests.log', requests.join('\\n'));
    writeFileSync('sim-secrets.json', JSON.stringify(sim.issuedSecrets()));
    await sim.close();
  };
}
`;

/** allure-vitest as an integrator configures it, over their own suite. */
const ALLURE_CONFIG = `export default { test: { include: ['allure.suite.test.ts'], pool: 'forks', isolate: false, globalSetup: ['sim.setup.mjs'],
  setupFiles: ['allure-vitest/setup'], reporters: ['default', ['allure-vitest/reporter', { resultsDir: 'allure-results' }]] } };
`;

/** An integrator's suite on the package's runtime: a scenario the Pact mock cannot serve, and one with no needs. */
const OWN_SUITE = `import { NOT_MANUAL, type ScenarioNeeds, scenario } from 'payconnect-conformance/suite';
const needs: ScenarioNeeds = { stateful: 'a sequence of states', terminal: NOT_MANUAL };
scenario('an integrator scenario that needs state', { capability: 'own', clause: 'spec#own', needs }, async (t) => {
  t.param('never', 'reached');
  throw new Error('a scenario whose need is not met must not run');
});
scenario('an integrator scenario that runs anywhere', { capability: 'own', clause: 'spec#own' }, async (t) => {
  t.param('target', t.harness.ctx.targetKind);
});
`;

/** The run context an engine would provide: the Pact mock's kind, nothing reachable (nothing is sent). */
const OWN_SUITE_CONFIG = `export default { test: { include: ['own.suite.test.ts'], pool: 'forks', isolate: false, provide: { payconnect: {
  targetKind: 'pact', baseUrl: 'http://127.0.0.1:9', integratorId: 'own', profile: 'sandbox', strict: false, terminal: 'auto', interactive: false,
  deadlineMs: 1500, settleMs: 80, seed: 1, runs: 1, vaultPath: '', otps: [], mintOtps: false, webhookListen: { host: '127.0.0.1', port: 0 },
  maxAmount: 100, sandbox: true, timeoutMs: 10000, workers: 1 } } } };
`;
