import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { cycleOf, layeringPlugin, readLayering, verdict } from './eslint-layering.js';

const root = resolve(import.meta.dirname, '..');
const rows = readLayering(readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8'));
const at = (p: string) => join(root, p);

describe("ARCHITECTURE.md's layering table", () => {
  it('allows what a row lists, a single file where only that file is listed, and nothing else', () => {
    expect(verdict(root, rows, at('src/runtime/scope.ts'), at('src/checks/index.ts'))).toBeUndefined();
    expect(verdict(root, rows, at('src/runtime/scope.ts'), at('src/transcript/recorder.ts'))).toBeUndefined();
    expect(verdict(root, rows, at('src/runtime/scope.ts'), at('src/transcript/rejudge.ts'))).toMatch(
      /src\/runtime may not import src\/transcript\/rejudge\.ts/,
    );
    expect(verdict(root, rows, at('src/simulator/routes.ts'), at('src/checks/index.ts'))).toMatch(/may import generated, core/);
    expect(verdict(root, rows, at('src/core/x.ts'), at('src/report/index.ts'))).toMatch(/may import nothing/);
  });

  it('"everything but" excludes what it names; a folder imports itself and packages freely', () => {
    expect(verdict(root, rows, at('src/engine/run.ts'), at('src/cli/main.ts'))).toMatch(/everything but cli/);
    expect(verdict(root, rows, at('src/engine/run.ts'), at('src/report/index.ts'))).toBeUndefined();
    expect(verdict(root, rows, at('src/pact/consumer/x.ts'), at('src/pact/names.ts'))).toBeUndefined();
  });

  it('suites and generators use the public barrel, not the layers behind it', () => {
    expect(verdict(root, rows, at('suites/auth/token.suite.ts'), at('src/index.ts'))).toBeUndefined();
    expect(verdict(root, rows, at('suites/auth/token.suite.ts'), at('src/runtime/harness.ts'))).toMatch(
      /suites may not import src\/runtime/,
    );
  });

  it('the table itself is acyclic, and a row that lists a room reaching back to it is a cycle', () => {
    expect(cycleOf(rows)).toBeUndefined();
    const table = (extra: string) =>
      readLayering(
        `<!-- layering:start -->\n| Folder | May import | Why |\n|---|---|---|\n| core | nothing | x |\n| report | core | x |\n| engine | everything but cli | x |\n| cli | everything | x |\n${extra}<!-- layering:end -->`,
      );
    expect(cycleOf(table('| receiver-check | report, core | x |\n'))).toBeUndefined();
    expect(cycleOf(table('| receiver-check | report, engine, core | x |\n'))).toEqual(['engine', 'receiver-check', 'engine']);
    expect(cycleOf(table('| receiver-check | report, engine/run.ts | x |\n'))).toEqual(['engine', 'receiver-check', 'engine']);
  });

  it('fails closed: a folder the table does not name is refused, as importer and as imported', () => {
    expect(verdict(root, rows, at('src/newthing/a.ts'), at('src/core/index.ts'))).toMatch(/newthing has no row/);
    expect(verdict(root, rows, at('src/cli/a.ts'), at('src/newthing/index.ts'))).toMatch(/src\/newthing has no row/);
  });
});

describe('the lint rule', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('reports a forbidden import in eslint, from the real config', async () => {
    const eslint = new ESLint({ cwd: root });
    const [bad] = await eslint.lintText("import { x } from '../checks/index.ts';\nexport const y = x;\n", {
      filePath: at('src/simulator/probe.ts'),
    });
    expect(bad!.messages.map((m) => m.ruleId)).toContain('layering/allowed-imports');
    const [good] = await eslint.lintText("import { x } from '../core/index.ts';\nexport const y = x;\n", {
      filePath: at('src/simulator/probe.ts'),
    });
    expect(good!.messages.filter((m) => m.ruleId === 'layering/allowed-imports')).toEqual([]);
  }, 60_000);

  it('refuses to load when a folder of src/ has no row, or the table is missing', () => {
    const d = mkdtempSync(join(tmpdir(), 'layering-'));
    dirs.push(d);
    mkdirSync(join(d, 'src', 'core'), { recursive: true });
    mkdirSync(join(d, 'src', 'extra'));
    writeFileSync(
      join(d, 'ARCHITECTURE.md'),
      '<!-- layering:start -->\n| Folder | May import | Why |\n|---|---|---|\n| core | nothing | x |\n<!-- layering:end -->\n',
    );
    expect(() => layeringPlugin(d)).toThrow(/src\/extra has no row/);
    writeFileSync(join(d, 'ARCHITECTURE.md'), '# no table\n');
    expect(() => layeringPlugin(d)).toThrow(/no table/);
  });
});
