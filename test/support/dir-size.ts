/** The size of a folder as `du` counts it: bytes of its files, disk blocks of everything, and its file count. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface DirSize {
  /** Bytes of the files (`du --apparent-size`). */
  bytes: number;
  /** Bytes of the disk blocks of the files and folders (`du`). */
  disk: number;
  files: number;
}

export function dirSize(dir: string): DirSize {
  const size: DirSize = { bytes: 0, disk: 0, files: 0 };
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const st = statSync(join(e.parentPath, e.name));
    size.disk += st.blocks * 512;
    if (e.isFile()) {
      size.bytes += st.size;
      size.files++;
    }
  }
  return size;
}
