import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ToolkitError } from '../core/index.ts';

/** Writes a report file whole or not at all (temporary file, then rename). */
export function writeReportFile(path: string, content: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, content);
    renameSync(tmp, path);
  } catch (e) {
    throw new ToolkitError('PCC_REPORT_WRITE', `could not write ${path}: ${(e as Error).message}`, 'check that the --reports folder is writable', { cause: e });
  }
}
