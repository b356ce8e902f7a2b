#!/usr/bin/env node
// Runs the built toolkit (dist/, made by `npm run build`) when it was built from the sources as they
// are; otherwise the TypeScript sources through tsx's loader (slower to start, more memory).
import { fileURLToPath } from 'node:url';
import { builtIsFresh } from './source-stamp.js';

let main;
if (builtIsFresh(fileURLToPath(new URL('../', import.meta.url)))) {
  ({ main } = await import('../dist/bundle/main.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
