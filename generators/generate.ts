/**
 * `npm run generate`: regenerates every file derived from the contract, and the bundled spec text.
 * `npm run check:generated` (`--check`): exits 1, naming the files, when any is stale or missing,
 * or when a file in a generated folder is no longer produced.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { ROOT, loadContract } from './contract.ts';
import { emitAll } from './emit.ts';
import { configJsonSchema } from '../src/index.ts';

/** The JSON Schema of the config file (from the option table). */
const CONFIG_SCHEMA = 'contracts/payconnect.config.schema.json';

/** Folders whose every file is generated (a leftover file there is stale too). */
const GENERATED_DIRS = ['contracts/schemas', 'src/generated'];

/**
 * The spec documents, bundled into the package (contracts/spec/) so reports can link a clause to its
 * text wherever the toolkit is installed. Their source is ../shared/spec beside the repository; where
 * it is absent (an installed package), the bundled copies are neither checked nor touched.
 */
const SPEC_SOURCE = join(ROOT, '..', 'shared', 'spec');
const SPEC_DIR = 'contracts/spec';

function specCopies(): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(SPEC_SOURCE)) return out;
  for (const f of readdirSync(SPEC_SOURCE)
    .filter((n) => n.endsWith('.md'))
    .sort())
    out.set(`${SPEC_DIR}/${f}`, readFileSync(join(SPEC_SOURCE, f), 'utf8'));
  return out;
}

/**
 * The generated TypeScript laid out as the rest of src (Prettier, with the project's settings), so no
 * line runs past the width: openapi-typescript and our emitter write each union on one line.
 */
async function formatted(files: Map<string, string>): Promise<void> {
  for (const [path, content] of files) {
    if (!path.startsWith('src/generated/') || !path.endsWith('.ts')) continue;
    const filepath = join(ROOT, path);
    files.set(path, await format(content, { ...(await resolveConfig(filepath)), filepath }));
  }
}

function existing(dir: string): string[] {
  try {
    return readdirSync(join(ROOT, dir)).map((f) => `${dir}/${f}`);
  } catch {
    return [];
  }
}

function read(path: string): string | undefined {
  try {
    return readFileSync(join(ROOT, path), 'utf8');
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const { doc, text } = loadContract();
  const files = await emitAll(doc, text);
  await formatted(files);
  files.set(CONFIG_SCHEMA, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  const spec = specCopies();
  for (const [p, c] of spec) files.set(p, c);
  const dirs = spec.size > 0 ? [...GENERATED_DIRS, SPEC_DIR] : GENERATED_DIRS;
  const stale = [...files].filter(([path, content]) => read(path) !== content).map(([p]) => p);
  const leftover = dirs.flatMap(existing).filter((p) => !files.has(p));
  if (check) {
    if (stale.length === 0 && leftover.length === 0) {
      console.log(`generated files are up to date (${files.size} files)`);
      return 0;
    }
    for (const p of stale) console.error(`stale: ${p}`);
    for (const p of leftover) console.error(`not generated any more: ${p}`);
    console.error('fix: run `npm run generate` and commit the result');
    return 1;
  }
  for (const p of leftover) rmSync(join(ROOT, p));
  for (const p of stale) {
    mkdirSync(dirname(join(ROOT, p)), { recursive: true });
    writeFileSync(join(ROOT, p), files.get(p)!);
  }
  console.log(`generated ${files.size} files (${stale.length} changed, ${leftover.length} removed)`);
  return 0;
}

process.exitCode = await main();
