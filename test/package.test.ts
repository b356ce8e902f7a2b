/**
 * The package as a user installs it: `npm pack`, installed into a fresh CommonJS npm project in a temp
 * folder, where a payconnect.config.ts that imports defineConfig type-checks (and a wrong one does
 * not), and `npx payconnect-conformance run --suite config` passes against the embedded simulator,
 * running the built JavaScript. Dependencies come from the npm cache that `npm ci` filled.
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

    const run = spawnSync(join(project, 'node_modules', '.bin', 'payconnect-conformance'), ['run'], { cwd: project, encoding: 'utf8', env: { ...process.env, CI: 'true', VITEST: undefined, VITEST_POOL_ID: undefined, VITEST_WORKER_ID: undefined } });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(project, 'reports', 'summary.json'), 'utf8')) as { verdict: string; counts: { tests: number; passed: number } };
    expect(summary.verdict).toBe('pass');
    expect(summary.counts.passed).toBe(summary.counts.tests);
    expect(run.stdout).toMatch(/^ {2}✓ config > /m);
  }, 240_000);
});
