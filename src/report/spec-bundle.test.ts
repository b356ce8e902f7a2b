import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RULES } from '../checks/index.ts';
import { bundledClauseUrl, defaultClauseUrl } from './allure-messages.ts';
import { specPage, writeSpecBundle } from './spec-bundle.ts';

const dir = mkdtempSync(join(tmpdir(), 'spec-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the spec bundled in the reports', () => {
  it('turns each heading into its clause anchor and shows the rest as written, escaped', () => {
    const page = specPage('t', '# Title\n\nsome <b>text</b>\n## POST /v1/a/{id}\n```\n# not a heading\n```\n');
    expect(page).toContain('<h1 id="title">');
    expect(page).toContain('<h2 id="post-v1aid">');
    expect(page).toContain('some &lt;b&gt;text&lt;/b&gt;');
    expect(page).toContain('# not a heading');
    expect(page).not.toContain('id="not-a-heading"');
  });

  it('writes every document, and every clause a rule of any command names is an anchor of its page', () => {
    const files = writeSpecBundle(dir);
    expect(files.map((f) => f.slice(dir.length + 1)).sort()).toEqual([
      'spec/pay-connect-spec.html',
      'spec/public-profile.html',
      'spec/sandbox.html',
    ]);
    const clauses = [...new Set([...RULES.values()].map((r) => r.clause).filter((c) => /^(spec|profile|sandbox)#./.test(c)))];
    expect(clauses.length).toBeGreaterThan(20);
    const missing = clauses.filter((c) => {
      const [file, anchor] = bundledClauseUrl('')(c).split('#');
      return !readFileSync(join(dir, file!), 'utf8').includes(`id="${anchor}"`);
    });
    expect(missing).toEqual([]);
  });

  it('links from the Allure report (allure-report/) and from the certification (the reports folder) to the same page', () => {
    expect(defaultClauseUrl('spec#authentication')).toBe('../spec/pay-connect-spec.html#authentication');
    expect(bundledClauseUrl('')('profile#webhooks')).toBe('spec/public-profile.html#webhooks');
  });
});
