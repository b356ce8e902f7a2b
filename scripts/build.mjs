// `npm run build` (also run by `npm ci` through `prepare`): compiles src/ to dist/ (JavaScript and
// .d.ts) with tsc, then records which sources it was built from. The command runs dist/ while that
// record matches src/ (no TypeScript loader in the main process: half the memory, a faster start),
// and falls back to running src/ through tsx otherwise.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STAMP_FILE, sourceStamp } from '../bin/source-stamp.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
writeFileSync(join(root, STAMP_FILE), `${sourceStamp(root)}\n`);
