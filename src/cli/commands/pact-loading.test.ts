/**
 * check-pact judges a pact file against the contract: it needs no Pact DSL, and pact-js (87 modules,
 * its native core among them) costs every start of the command. Each command is loaded in a fresh
 * Node, and the CommonJS modules of @pact-foundation it pulled in counted.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

async function pactModulesLoadedBy(module: string): Promise<number> {
  const script =
    `import { createRequire } from 'node:module'; await import(${JSON.stringify(module)}); ` +
    `console.log(Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('@pact-foundation')).length);`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT });
  return Number(stdout.trim().split('\n').at(-1));
}

describe("the pact room's entries", () => {
  it('check-pact loads no module of pact-js; verify-pacts does (the probe sees them)', async () => {
    const [check, verify] = await Promise.all([
      pactModulesLoadedBy('./src/cli/commands/check-pact.ts'),
      pactModulesLoadedBy('./src/cli/commands/verify-pacts.ts'),
    ]);
    expect(check).toBe(0);
    expect(verify).toBeGreaterThan(0);
  }, 60_000);
});
