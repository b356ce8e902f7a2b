/**
 * The CI recipes of docs/ci/ are copied as they are: each must be valid YAML (GitHub and GitLab
 * refuse a workflow that is not), and the staging gate compares with the last green run even when
 * the merged run is red (when "what changed?" matters most).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './support/run-cli.ts';

const recipe = (name: string) => parse(readFileSync(join(ROOT, 'docs', 'ci', name), 'utf8')) as Record<string, unknown>;

test('docs/ci recipes parse as YAML; the GitHub gate compares with the last green run, red or green', () => {
  const gh = recipe('github-actions.yml') as {
    jobs: Record<string, { steps: { if?: string; run?: string; uses?: string; with?: Record<string, string> }[] }>;
  };
  const upload = gh.jobs.conformance!.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
  expect(upload?.with).toEqual({ name: 'reports-${{ matrix.shard }}', path: 'reports-${{ matrix.shard }}' });
  const report = gh.jobs.report!.steps;
  const compare = report.find((s) => s.run?.includes('payconnect-conformance compare'));
  expect(compare?.run).toBe('npx payconnect-conformance compare last-green reports --reports reports/compare');
  for (const s of report.slice(report.findIndex((x) => x.run?.includes('merge-reports')) + 1))
    expect(s.if, JSON.stringify(s)).toMatch(/^always\(\)/);
  const gl = recipe('gitlab-ci.yml') as { conformance: { script: string[] } };
  expect(gl.conformance.script.at(-1)).toBe('npx payconnect-conformance run --seed $CI_PIPELINE_ID --reports reports $COMPARE');
});
