// The fingerprint of the toolkit's sources that the build (dist/) was made from: the command runs the
// built JavaScript only while it matches, so an edit to src/ is never hidden behind a stale build.
// Plain JavaScript: it runs before any TypeScript loader is there.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Files of src/ that the build compiles (tests and test helpers are not built). */
function sources(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, out);
    else if (/\.(ts|js)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** SHA-256 over every source file's path and content, in a fixed order. */
export function sourceStamp(root) {
  const hash = createHash('sha256');
  const src = join(root, 'src');
  for (const file of sources(src).sort()) {
    hash.update(relative(src, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** The stamp file the build writes. */
export const STAMP_FILE = 'dist/.source-stamp';

/** Whether dist/ under `root` was built from the sources as they are. */
export function builtIsFresh(root) {
  try {
    return readFileSync(join(root, STAMP_FILE), 'utf8').trim() === sourceStamp(root);
  } catch {
    return false;
  }
}
