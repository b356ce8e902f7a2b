/** Unit tests of clause texts: every registered check's clause is found in the bundled documents. */
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../checks/index.ts';
import { clauseText } from './clause-text.ts';

describe('clauseText', () => {
  it('finds the section of the clause of every registered check, heading first', () => {
    // A `contract#` clause is ours (an opt-in limit the user gives, such as --max-response-time): no document's section.
    const clauses = new Set([...CHECKS.values()].map((c) => c.clause).filter((c) => c.includes('#') && !c.startsWith('contract#')));
    expect(clauses.size).toBeGreaterThan(10);
    for (const clause of clauses) expect(clauseText(clause), clause).toMatch(/^(pay-connect-spec|public-profile|sandbox)\.md — #{1,6} \S/);
  });

  it('ends a section at the next heading of its level or higher, and knows no other clause', () => {
    const text = clauseText('spec#pairing-result')!;
    expect(text).toContain('### Pairing result');
    expect(text).toContain('webhook_secret_key');
    expect(text).not.toContain('### Token result');
    expect(clauseText('spec#no-such-heading')).toBeUndefined();
    expect(clauseText('elsewhere#x')).toBeUndefined();
  });

  it('cuts a long section at a line end, saying where the whole of it is', () => {
    const whole = clauseText('spec#endpoints', undefined, 1_000_000)!;
    expect(whole.length).toBeGreaterThan(2000);
    const cut = clauseText('spec#endpoints')!;
    expect(cut.length).toBeLessThan(2200);
    expect(cut).toMatch(
      /\n… \(cut: the whole section is in pay-connect-spec\.md, under contracts\/spec\/ where the toolkit is installed\)\n$/,
    );
    expect(whole.startsWith(cut.slice(0, cut.indexOf('\n…')))).toBe(true);
  });
});
