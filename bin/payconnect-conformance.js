#!/usr/bin/env node
// Runs the built toolkit (dist/, made by `npm run build`) when it was built from the sources as they
// are; otherwise the TypeScript sources through tsx's loader (slower to start, more memory).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STAMP_FILE, sourceStamp } from './source-stamp.js';

const root = fileURLToPath(new URL('../', import.meta.url));
function builtIsFresh() {
  try {
    return readFileSync(join(root, STAMP_FILE), 'utf8').trim() === sourceStamp(root);
  } catch {
    return false;
  }
}

let main;
if (builtIsFresh()) {
  ({ main } = await import('../dist/cli/main.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
