/** `compare`'s files: compare.json and compare.html in the reports folder. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolkitError, makeDirs } from '../core/index.ts';
import { type Comparison, compareRuns } from './diff.ts';
import { loadRun } from './load.ts';
import { compareHtml } from './render.ts';

/** Compares the reports folders `base` and `candidate`, writes compare.json and compare.html into `outDir`. */
export async function compareFolders(
  base: string,
  candidate: string,
  outDir: string,
  charts?: (c: Comparison, b: Awaited<ReturnType<typeof loadRun>>, n: Awaited<ReturnType<typeof loadRun>>) => Promise<string>,
): Promise<{ comparison: Comparison; json: string; html: string }> {
  const [b, n] = [await loadRun(base, 'BASE'), await loadRun(candidate, 'CANDIDATE')];
  const comparison = compareRuns(b, n);
  const json = join(outDir, 'compare.json');
  const html = join(outDir, 'compare.html');
  try {
    await makeDirs(outDir);
    writeFileSync(json, `${JSON.stringify(comparison, null, 2)}\n`);
    writeFileSync(html, compareHtml(comparison, charts ? await charts(comparison, b, n) : ''));
  } catch (e) {
    throw new ToolkitError(
      'PCC_REPORT_WRITE',
      `could not write ${outDir}: ${(e as Error).message}`,
      'check that the --reports folder is writable',
      { cause: e },
    );
  }
  return { comparison, json, html };
}
