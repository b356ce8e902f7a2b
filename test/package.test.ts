/**
 * The package as a user installs it: `npm pack`, installed into a fresh CommonJS npm project in a temp
 * folder, where a payconnect.config.ts that imports defineConfig type-checks (and a wrong one does
 * not), an integrator's own suite imports the runtime from `payconnect-conformance/suite` and runs
 * on it under vitest, and `npx payconnect-conformance run --suite config` passes against the embedded
 * simulator, running the built JavaScript. Dependencies come from the npm cache that `npm ci` filled.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './support/run-cli.ts';

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });

describe('the package', () => {
  it('installs into a CommonJS project, type-checks its config, and runs', () => {
    const project = tempDir('pcc-consumer-');
    // --ignore-scripts: the build is there already (npm ci ran prepare); building again would
    // replace dist/ under the other self-tests' feet.
    npm(['pack', '--ignore-scripts', '--pack-destination', project], ROOT);
    const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'))!;
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-point-of-sale', version: '1.0.0', type: 'commonjs', private: true }));
    npm(['install', '--prefer-offline', '--no-save', `./${tarball}`], project);

    writeFileSync(join(project, 'payconnect.config.ts'), `import { defineConfig } from 'payconnect-conformance';\nexport default defineConfig({ suites: ['config'], html: false, terminals: 2 });\n`);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'] }, files: ['payconnect.config.ts'] }));
    const typed = spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8' });
    expect(typed.status, typed.stdout + typed.stderr).toBe(0);
    writeFileSync(join(project, 'wrong.config.ts'), `import { defineConfig } from 'payconnect-conformance';\nexport default defineConfig({ suites: ['paymnet'] });\n`);
    const wrong = spawnSync(process.execPath, [TSC, '--module', 'nodenext', '--moduleResolution', 'nodenext', '--strict', '--noEmit', '--skipLibCheck', join(project, 'wrong.config.ts')], { encoding: 'utf8', cwd: project });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toContain('Did you mean \'"payment"\'?');

    // An integrator's own suite: the runtime comes from the `./suite` entry point, typed; its internals
    // (Harness, OtpSource, RUN_CONTEXT_KEY) are no part of the main entry.
    writeFileSync(join(project, 'own.suite.test.ts'), OWN_SUITE);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'] }, files: ['payconnect.config.ts', 'own.suite.test.ts'] }));
    const ownTyped = spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8' });
    expect(ownTyped.status, ownTyped.stdout + ownTyped.stderr).toBe(0);
    writeFileSync(join(project, 'internal.ts'), `import { Harness } from 'payconnect-conformance';\nexport const h: unknown = Harness;\n`);
    const internal = spawnSync(process.execPath, [TSC, '--module', 'nodenext', '--moduleResolution', 'nodenext', '--strict', '--noEmit', '--skipLibCheck', join(project, 'internal.ts')], { encoding: 'utf8', cwd: project });
    expect(internal.stdout).toContain("has no exported member 'Harness'");
    // It runs on the package's runtime: a need the run does not meet skips the scenario with its reason.
    writeFileSync(join(project, 'vitest.config.mjs'), OWN_SUITE_CONFIG);
    const own = spawnSync(join(project, 'node_modules', '.bin', 'vitest'), ['run', '--reporter=json', '--outputFile=own.json'], { cwd: project, encoding: 'utf8', env: { ...process.env, CI: 'true', VITEST: undefined, VITEST_POOL_ID: undefined, VITEST_WORKER_ID: undefined } });
    expect(own.status, own.stdout + own.stderr).toBe(0);
    const results = (JSON.parse(readFileSync(join(project, 'own.json'), 'utf8')) as { testResults: { assertionResults: { title: string; status: string }[] }[] }).testResults.flatMap((r) => r.assertionResults);
    expect(results.map((r) => [r.title, r.status])).toEqual([['an integrator scenario that needs state', 'skipped'], ['an integrator scenario that runs anywhere', 'passed']]);

    const run = spawnSync(join(project, 'node_modules', '.bin', 'payconnect-conformance'), ['run'], { cwd: project, encoding: 'utf8', env: { ...process.env, CI: 'true', VITEST: undefined, VITEST_POOL_ID: undefined, VITEST_WORKER_ID: undefined } });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(project, 'reports', 'summary.json'), 'utf8')) as { verdict: string; counts: { tests: number; passed: number } };
    expect(summary.verdict).toBe('pass');
    expect(summary.counts.passed).toBe(summary.counts.tests);
    expect(run.stdout).toMatch(/^ {2}✓ config > /m);
  }, 240_000);
});

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
