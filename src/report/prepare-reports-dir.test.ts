/** Unit tests of the reports folder check made before a run: made when missing, refused when unusable. */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareReportsDir } from './write.ts';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pcc-reports-dir-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const failure = async (path: string) => {
  try {
    await prepareReportsDir(path);
  } catch (e) {
    return e as { code: string; message: string; hint: string };
  }
  throw new Error(`no error for ${path}`);
};

describe('prepareReportsDir', () => {
  it('makes missing folders and leaves an existing one as it was (no probe file behind)', async () => {
    const nested = join(dir, 'a', 'b', 'reports');
    await prepareReportsDir(nested);
    expect(statSync(nested).isDirectory()).toBe(true);
    await prepareReportsDir(dir);
    expect(readdirSync(dir)).toEqual(['a']);
    expect(readdirSync(nested)).toEqual([]);
  });

  it('refuses a file, a path under a file and a path that cannot be made, each with the fix', async () => {
    const file = join(dir, 'summary.json');
    writeFileSync(file, '{}');
    expect(await failure(file)).toMatchObject({
      code: 'PCC_REPORT_WRITE',
      message: `the reports folder ${file} is a file, not a folder`,
      hint: 'choose a writable folder with --reports <dir>',
    });
    expect((await failure(join(file, 'sub'))).code).toBe('PCC_REPORT_WRITE');
    expect(await failure('/proc/pcc-no-such-folder/reports')).toMatchObject({
      code: 'PCC_REPORT_WRITE',
      message: expect.stringContaining('cannot be made'),
    });
  });
});
