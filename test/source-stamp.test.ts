/**
 * The command runs the build (dist/) only while it was made from the sources as they are: the stamp
 * changes with any source file's content or name, and not with a test file.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceStamp } from '../bin/source-stamp.js';
import { tempDir } from './support/run-cli.ts';

describe('sourceStamp', () => {
  it('changes with a source file, its name or a new one, and not with a test', () => {
    const root = tempDir('pcc-stamp-');
    mkdirSync(join(root, 'src', 'a'), { recursive: true });
    writeFileSync(join(root, 'src', 'a', 'one.ts'), 'export const one = 1;\n');
    writeFileSync(join(root, 'src', 'two.js'), 'export const two = 2;\n');
    const first = sourceStamp(root);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(sourceStamp(root)).toBe(first);

    writeFileSync(join(root, 'src', 'a', 'one.test.ts'), 'it("x", () => {});\n');
    expect(sourceStamp(root)).toBe(first);

    writeFileSync(join(root, 'src', 'a', 'one.ts'), 'export const one = 11;\n');
    const edited = sourceStamp(root);
    expect(edited).not.toBe(first);

    renameSync(join(root, 'src', 'two.js'), join(root, 'src', 'three.js'));
    const renamed = sourceStamp(root);
    expect(renamed).not.toBe(edited);

    writeFileSync(join(root, 'src', 'four.ts'), '');
    expect(sourceStamp(root)).not.toBe(renamed);
  });
});
