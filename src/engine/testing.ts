/** Test helpers of this folder. Not exported by the barrel, not built. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The metadata of each module vitest's module cache holds in `dir` (each entry ends in a comment with
 * it, base64 JSON, the module's id among it): what a test reads to see which files went through it.
 */
export function cachedModuleMetadata(dir: string): string[] {
  const marker = '\n//# vitestCache=';
  return readdirSync(dir)
    .filter((f) => statSync(join(dir, f)).isFile())
    .flatMap((f) => {
      const text = readFileSync(join(dir, f), 'utf8');
      const at = text.lastIndexOf(marker);
      return at < 0 ? [] : [Buffer.from(text.slice(at + marker.length), 'base64').toString('utf8')];
    });
}
