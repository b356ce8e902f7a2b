/**
 * The `--check` pattern of the generated docs (detection-matrix.ts, rules-doc.ts): write the file, or
 * with `--check` exit 1 when it is not what would be written (CI fails on a stale one).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Writes `text` to `file`, or with `--check` in `argv` compares them; the exit code. `regenerate` is the command to tell. */
export function writeOrCheck(file: string, text: string, argv: readonly string[], regenerate: string): number {
  const shown = relative(ROOT, file);
  if (argv.includes('--check')) {
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (current === text) return 0;
    process.stderr.write(`${shown} is stale: run \`${regenerate}\` and commit it\n`);
    return 1;
  }
  writeFileSync(file, text);
  process.stdout.write(`wrote ${file}\n`);
  return 0;
}
