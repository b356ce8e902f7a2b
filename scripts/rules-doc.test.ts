/**
 * docs/rules.md: a row for every registered rule under each command that judges it, with its severity,
 * its quote in typographic quotes and its fix, former ids beside their rule, the assumptions and the
 * contract's own constraints apart, and the file as the script would write it now (CI fails on a
 * stale one: `npx tsx scripts/rules-doc.ts --check`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES, listRules } from '../src/checks/rule-registry.ts';
import { JUDGES } from '../src/checks/rule.ts';
import { RULES_FILE, quoteCell, rulesDoc } from './rules-doc.ts';
import { writeOrCheck } from './write-or-check.ts';

describe('docs/rules.md', () => {
  const doc = readFileSync(RULES_FILE, 'utf8');
  const section = (j: string) =>
    doc.slice(doc.indexOf(`\n## ${j}\n`), (doc.indexOf('\n## ', doc.indexOf(`\n## ${j}\n`) + 1) + 1 || doc.length + 1) - 1);

  it('lists every rule under each command that judges it, with its severity, clause and fix', () => {
    for (const r of listRules()) {
      for (const j of JUDGES) {
        const row = section(j)
          .split('\n')
          .find((l) => l.startsWith(`| \`${r.id}\``));
        if (!r.judges.includes(j)) {
          expect(row, `${r.id} under ${j}`).toBeUndefined();
          continue;
        }
        expect(row, `${r.id} under ${j}`).toBeDefined();
        expect(row).toContain(`| ${r.severity} | \`${r.clause}\` | ${quoteCell(r)} |`);
        expect(row).toContain(r.fix.replace(/\|/g, '\\|'));
        if (r.assumption) expect(row).toContain('none: an assumption of ours');
        else for (const q of r.quote) expect(row).toContain(`“${q.replace(/\s+/g, ' ').replace(/\|/g, '\\|')}”`);
      }
    }
    expect(doc).toContain(`${RULES.size} rules:`);
  });

  it("lists the assumptions of ours apart, and the contract's own constraints with the invalid inputs' sentences", () => {
    const assumed = section('Assumptions of ours');
    const rows = listRules().filter((r) => r.assumption);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(assumed).toContain(`| \`${r.id}\` | ${r.assumption!.name} |`);
    expect(section('Constraints of the contract that are ours')).toContain('| `PairRequest` | `webhook_url` | `pattern` |');
    expect(section('Invalid inputs')).toContain('`sandbox#pairing` | “A consumed, malformed or never-valid OTP answers 400.”');
  });

  it('shows a shared rule under both commands, with its former id', () => {
    for (const j of ['check-receiver', 'certify-client']) {
      expect(section(j)).toMatch(/\| `receiver\.valid-accepted`<br>formerly `client\.webhook-accepted`<br>also [a-z-]+ \| failure \|/);
    }
  });

  it('is fresh: `npx tsx scripts/rules-doc.ts` would write it unchanged', () => {
    expect(doc).toBe(rulesDoc());
  });

  it('--check fails on a stale file and passes on a fresh one, writing nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pcc-rules-doc-'));
    const stderr = process.stderr.write;
    try {
      const file = join(dir, 'rules.md');
      writeFileSync(file, 'old\n');
      process.stderr.write = () => true;
      expect(writeOrCheck(file, rulesDoc(), ['--check'], 'regenerate')).toBe(1);
      expect(readFileSync(file, 'utf8')).toBe('old\n');
      writeFileSync(file, rulesDoc());
      expect(writeOrCheck(file, rulesDoc(), ['--check'], 'regenerate')).toBe(0);
    } finally {
      process.stderr.write = stderr;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
