#!/usr/bin/env node
// The toolkit is TypeScript run without a build step: tsx's loader lets Node import it directly.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
