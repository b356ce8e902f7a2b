import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ToolkitError, isToolkitError, makeDirs } from '../core/index.ts';

/** The file names in the reports folder. */
export const REPORT_FILES = {
  summary: 'summary.json',
  coverage: 'coverage.json',
  junit: 'junit.xml',
  certificationMd: 'certification.md',
  certificationHtml: 'certification.html',
  allureResults: 'allure-results',
  allureReport: 'allure-report',
  allureHistory: 'allure-history.jsonl',
} as const;

/** Writes a report file whole or not at all (temporary file, then rename). */
export function writeReportFile(path: string, content: string): void {
  writeReportFileInPieces(path, [content]);
}

/**
 * {@link writeReportFile} for content made a piece at a time: each piece is written as it comes, so
 * the whole file is never one string in memory (a thorough run's shard record is about 10 MB of JSON).
 * A failure leaves the earlier file and no temporary one.
 */
export function writeReportFileInPieces(path: string, pieces: Iterable<string | Uint8Array>): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(tmp, 'w');
    try {
      for (const piece of pieces) {
        const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
        for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
      }
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    // A piece the maker could not make is its error (a bug is PCC_INTERNAL), not the folder's.
    if (isToolkitError(e)) throw e;
    throw new ToolkitError(
      'PCC_REPORT_WRITE',
      `could not write ${path}: ${(e as Error).message}`,
      'check that the --reports folder is writable',
      { cause: e },
    );
  }
}

/** A fresh hidden folder beside `final` (same file system), to be moved in place by {@link replaceDirectory}. */
export function stagingDirectory(final: string, what = 'tmp'): string {
  const dir = join(dirname(final), `.${basename(final)}.${what}-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Puts the complete folder `staged` in the place of `final`: the old one is moved aside first and
 * removed after, so a reader finds the old folder or the new one, never half of one. Another run
 * finishing at the same moment may win: the last one in place stays.
 */
export function replaceDirectory(staged: string, final: string): void {
  const old = `${dirname(final)}/.${basename(final)}.old-${process.pid}-${randomBytes(4).toString('hex')}`;
  for (let attempt = 0; ; attempt++) {
    try {
      try {
        renameSync(final, old);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
      renameSync(staged, final);
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (attempt < 3 && (code === 'ENOTEMPTY' || code === 'EEXIST')) continue;
      rmSync(staged, { recursive: true, force: true });
      throw new ToolkitError(
        'PCC_REPORT_WRITE',
        `could not put ${final} in place: ${(e as Error).message}`,
        'check that the --reports folder is writable',
        { cause: e },
      );
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  }
}

/**
 * Checks, before a run starts, that the reports can be written to `dir`, creating it if needed: an
 * existing file there, a parent that is no folder, or a folder that refuses a file is one clear
 * error, never a half-written report later.
 *
 * @throws ToolkitError PCC_REPORT_WRITE
 */
export async function prepareReportsDir(dir: string): Promise<void> {
  const fail = (why: string, cause?: unknown) =>
    new ToolkitError('PCC_REPORT_WRITE', `the reports folder ${dir} ${why}`, 'choose a writable folder with --reports <dir>', { cause });
  try {
    await makeDirs(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const isFile =
      code === 'ENOTDIR' &&
      (() => {
        try {
          return !statSync(dir).isDirectory();
        } catch {
          return false;
        }
      })();
    throw fail(isFile ? 'is a file, not a folder' : `cannot be made (${code ?? (e as Error).message})`, e);
  }
  const probe = join(dir, `.pcc-write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (e) {
    throw fail(`refuses new files (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, e);
  }
}
