/**
 * What `verify-certificate` needs of `rejudge`: the verdict and the failed tests that re-judging a
 * folder's transcript gives, offline, its reports written to a throw-away folder (the signed folder
 * is left exactly as it was).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Rejudged, testLists } from '../attest/index.ts';

export async function rejudgeVerdict(dir: string): Promise<Rejudged> {
  const { rejudge } = await import('../transcript/index.ts');
  const out = mkdtempSync(join(tmpdir(), 'pcc-rejudge-'));
  try {
    const r = await rejudge(dir, { out });
    return { verdict: r.summary.verdict, failedTests: testLists(r.record).failedTests };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
