/** Pact files on disk: the normalised form, what a folder holds, and a clear error for what is not a pact. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PACT_DIR, PACT_FILE_NAME } from './names.ts';
import { normalizePact, pactFilesOf, readPact, writeNormalizedPact } from './pact-file.ts';

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'pcc-pact-file-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const pact = (descriptions: string[]) =>
  JSON.stringify({
    consumer: { name: 'c' },
    provider: { name: 'p' },
    interactions: descriptions.map((description) => ({ type: 'Synchronous/HTTP', description })),
    metadata: {},
  });

describe('pact files', () => {
  it('normalise to interactions sorted by type and description, the same text whatever the order written', () => {
    const a = normalizePact(pact(['b', 'a', 'c']));
    expect(a).toBe(normalizePact(pact(['c', 'b', 'a'])));
    expect((JSON.parse(a) as { interactions: { description: string }[] }).interactions.map((i) => i.description)).toEqual(['a', 'b', 'c']);
    expect(a.endsWith('}\n')).toBe(true);
  });

  it('the committed pact is in its normalised form already', () => {
    const text = readFileSync(join(DEFAULT_PACT_DIR, PACT_FILE_NAME), 'utf8');
    expect(normalizePact(text)).toBe(text);
  });

  it('copy what pact-js wrote, normalised; with nothing written say so (PCC_PACT)', () => {
    const [from, to] = [temp(), temp()];
    writeFileSync(join(from, PACT_FILE_NAME), pact(['z', 'y']));
    const written = writeNormalizedPact(from, join(to, 'out'));
    expect(readPact(written).interactions.map((i) => i.description)).toEqual(['y', 'z']);
    expect(() => writeNormalizedPact(temp(), to)).toThrow(expect.objectContaining({ code: 'PCC_PACT' }));
  });

  it('list a file as itself and a folder by its *.json files; an empty folder or a missing path is a usage error', () => {
    const d = temp();
    writeFileSync(join(d, 'b.json'), pact([]));
    writeFileSync(join(d, 'a.json'), pact([]));
    writeFileSync(join(d, 'notes.txt'), 'x');
    expect(pactFilesOf(d)).toEqual([join(d, 'a.json'), join(d, 'b.json')]);
    expect(pactFilesOf(join(d, 'a.json'))).toEqual([join(d, 'a.json')]);
    expect(() => pactFilesOf(temp())).toThrow(expect.objectContaining({ code: 'PCC_USAGE' }));
    expect(() => pactFilesOf(join(d, 'missing'))).toThrow(expect.objectContaining({ code: 'PCC_USAGE' }));
    writeFileSync(join(d, 'broken.json'), '{');
    expect(() => readPact(join(d, 'broken.json'))).toThrow(expect.objectContaining({ code: 'PCC_PACT' }));
  });
});
