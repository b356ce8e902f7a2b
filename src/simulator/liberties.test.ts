/** The liberal sandbox's catalogue: every liberty quotes the documents verbatim or names the topic they leave out. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIBERTIES } from './liberties.ts';

const DOCS = {
  spec: 'pay-connect-spec.md',
  profile: 'public-profile.md',
  sandbox: 'sandbox.md',
} as const;
const text = (doc: keyof typeof DOCS) => readFileSync(new URL(`../../contracts/spec/${DOCS[doc]}`, import.meta.url), 'utf8');

describe("the liberal sandbox's catalogue", () => {
  it('has unique ids, says what each liberty does and which silence it uses', () => {
    const ids = LIBERTIES.map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const x of LIBERTIES) {
      expect(x.does.length, x.id).toBeGreaterThan(20);
      expect(x.silence.length, x.id).toBeGreaterThan(10);
      expect(x.quotes.length, `${x.id} quotes no sentence`).toBeGreaterThan(0);
    }
  });

  it('finds every quote verbatim in the bundled documents', () => {
    const missing = LIBERTIES.flatMap((x) =>
      x.quotes.filter((qt) => !text(qt.doc).includes(qt.text)).map((qt) => `${x.id}: ${qt.doc}: ${qt.text}`),
    );
    expect(missing).toEqual([]);
  });
});
