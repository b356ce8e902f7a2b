import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledConfigCache, findConfigFile, readConfigFile } from './file.ts';
import { CONFIG_INDEX, rejection, useTempDirs } from './testing.ts';

const { dirWith } = useTempDirs();

describe('readConfigFile', () => {
  it('finds payconnect.config.mjs in the working directory and offers its values as file candidates', async () => {
    const dir = await dirWith({ 'payconnect.config.mjs': `export default { target: 'pact', sim: { stepDelay: '5ms' } };` });
    const loaded = await readConfigFile(undefined, dir);
    const path = join(dir, 'payconnect.config.mjs');
    expect(loaded?.path).toBe(path);
    expect(loaded?.values.target).toEqual({ value: 'pact', source: 'file', where: `config file ${path} (key target)`, baseDir: dir });
    expect(loaded?.values['sim.stepDelay']?.value).toBe('5ms');
    expect(loaded?.values.deadline).toBeUndefined();
  });

  it('loads a TypeScript config file that uses defineConfig and types', async () => {
    const dir = await dirWith({
      'payconnect.config.ts': [
        `import { defineConfig, type UserConfig } from ${JSON.stringify(CONFIG_INDEX)};`,
        `const suites: UserConfig['suites'] = ['payment', 'refund'];`,
        `export default defineConfig({ suites, maxAmount: 250 as number });`,
      ].join('\n'),
    });
    const loaded = await readConfigFile(undefined, dir);
    expect(loaded?.path).toBe(join(dir, 'payconnect.config.ts'));
    expect(loaded?.values.suites?.value).toEqual(['payment', 'refund']);
    expect(loaded?.values.maxAmount?.value).toBe(250);
  });

  it('keeps a compiled TypeScript config by its source, private, and reads it back instead of compiling again', async () => {
    const n = 1000 + Math.floor(Math.random() * 9000);
    const dir = await dirWith({ 'payconnect.config.ts': `const maxAmount: number = ${n};\nexport default { maxAmount };\n` });
    expect((await readConfigFile(undefined, dir))?.values.maxAmount?.value).toBe(n);
    const cache = compiledConfigCache()!;
    const entries = readdirSync(cache)
      .map((f) => join(cache, f))
      .filter((f) => f.endsWith('.mjs') && readFileSync(f, 'utf8').includes(`maxAmount = ${n};`));
    expect(entries).toHaveLength(1);
    const entry = entries[0]!;
    expect(statSync(entry).mode & 0o777).toBe(0o600);
    // What a later load reads instead of compiling: the entry, not the file.
    writeFileSync(entry, 'export default { maxAmount: 7 };');
    const saved = process.env.PAYCONNECT_MODULE_CACHE;
    try {
      expect((await readConfigFile(undefined, dir))?.values.maxAmount?.value).toBe(7);
      process.env.PAYCONNECT_MODULE_CACHE = 'off';
      expect((await readConfigFile(undefined, dir))?.values.maxAmount?.value).toBe(n);
    } finally {
      if (saved === undefined) delete process.env.PAYCONNECT_MODULE_CACHE;
      else process.env.PAYCONNECT_MODULE_CACHE = saved;
      rmSync(entry, { force: true });
    }
    expect(readdirSync(dir)).toEqual(['payconnect.config.ts']);
  });

  it('prefers .ts over .mjs over .js, and finds none in an empty folder', async () => {
    const both = await dirWith({ 'payconnect.config.js': 'export default {}', 'payconnect.config.mjs': 'export default {}' });
    expect(await findConfigFile(both)).toBe(join(both, 'payconnect.config.mjs'));
    expect(await readConfigFile(undefined, await dirWith({}))).toBeUndefined();
  });

  it('loads an explicitly named file, relative to the working directory', async () => {
    const dir = await dirWith({ 'custom.mjs': `export default { terminal: 'observe' };` });
    const loaded = await readConfigFile({ value: 'custom.mjs', source: 'flag', where: 'flag --config' }, dir);
    expect(loaded?.values.terminal?.value).toBe('observe');
  });

  it('rejects a missing explicit file: PCC_USAGE from --config, PCC_CONFIG_INVALID from PAYCONNECT_CONFIG', async () => {
    const dir = await dirWith({});
    const byFlag = await rejection(readConfigFile({ value: 'nope.ts', source: 'flag', where: 'flag --config' }, dir));
    expect(byFlag.code).toBe('PCC_USAGE');
    expect(byFlag.message).toContain('flag --config');
    expect(byFlag.message).toContain(`${join(dir, 'nope.ts')} does not exist`);
    const byEnv = await rejection(readConfigFile({ value: dir, source: 'env', where: 'environment variable PAYCONNECT_CONFIG' }, dir));
    expect(byEnv.code).toBe('PCC_CONFIG_INVALID');
    expect(byEnv.message).toContain('is not a file');
  });

  it('rejects a file that throws on import, naming the file and keeping the cause', async () => {
    const dir = await dirWith({ 'payconnect.config.mjs': `throw new Error('boom from config');\nexport default {};` });
    const error = await rejection(readConfigFile(undefined, dir));
    expect(error.code).toBe('PCC_CONFIG_INVALID');
    expect(error.message).toContain(join(dir, 'payconnect.config.mjs'));
    expect(error.message).toContain('boom from config');
    expect((error.cause as Error).message).toBe('boom from config');
  });

  it('a TypeScript syntax error keeps the file, line, column and text', async () => {
    const dir = await dirWith({ 'payconnect.config.ts': `export default {\n  target: 'sim',,\n};\n` });
    const error = await rejection(readConfigFile(undefined, dir));
    expect(error.code).toBe('PCC_CONFIG_INVALID');
    expect(error.message).toMatch(
      new RegExp(
        `^config file ${join(dir, 'payconnect.config.ts').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:17: .*\\(in: target: 'sim',,\\)$`,
      ),
    );
    expect(readdirSync(dir)).toEqual(['payconnect.config.ts']);
  });

  it('loads a TypeScript config in a CommonJS project, and leaves no compiled file behind', async () => {
    const dir = await dirWith({
      'package.json': JSON.stringify({ name: 'a-cjs-project', type: 'commonjs' }),
      'helper.mjs': `export const suites = ['config'];`,
      'payconnect.config.ts': `import { suites } from './helper.mjs';\nconst html: boolean = false;\nexport default { suites, html };\n`,
    });
    const loaded = await readConfigFile(undefined, dir);
    expect(loaded?.values.suites?.value).toEqual(['config']);
    expect(loaded?.values.html?.value).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['helper.mjs', 'package.json', 'payconnect.config.ts']);
  });

  it('rejects a JavaScript file with a syntax error, saying where', async () => {
    const dir = await dirWith({ 'payconnect.config.mjs': `export default {\n  target: 'sim'\n  strict: true,\n};\n` });
    const error = await rejection(readConfigFile(undefined, dir));
    expect(error.code).toBe('PCC_CONFIG_INVALID');
    expect(error.message).toContain(`${join(dir, 'payconnect.config.mjs')}:3:3: Expected "}" but found "strict" (in: strict: true,)`);
  });

  it.each([
    ['no default export', `export const target = 'sim';`, 'has no default export'],
    ['a function', `export default () => ({});`, 'must export an object, it exports a function'],
    ['an array', `export default [];`, 'must export an object, it exports an array'],
    ['an unknown key', `export default { tagret: 'sim' };`, 'unknown key tagret'],
    ['an unknown sim key', `export default { sim: { fault: [] } };`, 'unknown key sim.fault'],
    ['a sim that is not an object', `export default { sim: 'fast' };`, 'invalid sim'],
  ])('rejects %s', async (_name, source, expected) => {
    const dir = await dirWith({ 'payconnect.config.mjs': source });
    const error = await rejection(readConfigFile(undefined, dir));
    expect(error.code).toBe('PCC_CONFIG_INVALID');
    expect(error.message).toContain(expected);
    expect(error.message).toContain(join(dir, 'payconnect.config.mjs'));
  });

  it('suggests the key meant', async () => {
    const dir = await dirWith({ 'payconnect.config.mjs': `export default { tagret: 'sim' };` });
    expect((await rejection(readConfigFile(undefined, dir))).message).toContain('did you mean target?');
  });
});
