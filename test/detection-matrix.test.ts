/**
 * docs/detection-matrix.md: a row for every simulator fault switch, each fault that breaks a rule
 * caught by at least one registered check, and the file as the script would write it now (CI fails
 * on a stale one, as it does on stale generated files).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectionMatrix, MATRIX_FILE, matrixRows } from '../scripts/detection-matrix.ts';
import { CHECKS, FAULTS } from '../src/index.ts';

describe('the detection matrix', () => {
  const rows = matrixRows();
  const doc = readFileSync(MATRIX_FILE, 'utf8');

  it("has a row for every fault switch, in the simulator's order", () => {
    expect(rows.map((r) => r.fault)).toEqual(FAULTS.map((f) => f.id));
    for (const f of FAULTS) expect(doc, f.id).toContain(`| \`${f.id}\` | \`${f.rule}\` |`);
  });

  it('shows each fault that breaks a rule caught by at least one registered check, in a named suite', () => {
    for (const r of rows.filter((x) => x.kind === 'breaks')) {
      expect(r.checks.length, r.fault).toBeGreaterThan(0);
      expect(r.suites.length, r.fault).toBeGreaterThan(0);
      for (const c of r.checks) expect(CHECKS.has(c.check), `${r.fault}: ${c.check}`).toBe(true);
    }
    expect(doc).not.toContain('**none**');
  });

  it('lists each legal fault as one that must stay clean, with the suites run on it and no check', () => {
    for (const r of rows.filter((x) => x.kind === 'legal')) {
      expect(r.checks, r.fault).toEqual([]);
      expect(r.suites.length, r.fault).toBeGreaterThan(0);
    }
    expect(doc).toContain('## Legal faults: must stay clean');
  });

  it('counts detections per check and per suite from the rows', () => {
    const schema = rows.filter((r) => r.checks.some((c) => c.check === 'response.schema')).length;
    expect(doc).toMatch(new RegExp(`\\| \`response\\.schema\` \\| \`[^\`]+\` \\| ${schema} \\|`));
    const printSlip = rows.filter((r) => r.kind === 'breaks' && r.suites.includes('print-slip')).length;
    expect(doc).toContain(`| print-slip | ${printSlip} |`);
  });

  it('says where it comes from and that the self-tests prove it', () => {
    expect(doc).toContain('test/faults.test.ts proves every row against a');
  });

  it('is fresh: `npm run detection-matrix` would write it unchanged', () => {
    expect(doc).toBe(detectionMatrix());
  });
});
