/**
 * What a shard leaves for `merge-reports`: its run record (redacted, like every report) and what the
 * reports say about the run, in `run-record.json` beside its summary.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolkitError } from '../core/index.ts';
import { digestOf } from './coverage.ts';
import type { RunRecord } from './records.ts';
import type { RunInfo } from './run-info.ts';
import { scrubSecrets } from './scrub.ts';
import { writeReportFileInPieces } from './write.ts';

/** The file name in a shard's reports folder. */
export const SHARD_RECORD_FILE = 'run-record.json';
const FORMAT = 'payconnect-conformance/run-record@1';

/** A shard's record. */
export interface ShardRecord {
  format: typeof FORMAT;
  shard: { index: number; count: number };
  /** The package root the shard ran from (its CI job's checkout): its tests' files are under it. */
  root?: string;
  info: RunInfo;
  record: RunRecord;
}

/**
 * Writes a shard's record (whole or not at all), scrubbed as every report is. The tests are whole,
 * exchanges and deliveries included: merge-reports writes every report from these records alone
 * (the Allure results with their steps and evidence too), as the whole run would have. Each test
 * carries its coverage digest (made from its exchanges when its worker left none), so the merged
 * coverage is the one the shards saw.
 */
export function writeShardRecord(
  dir: string,
  shard: { index: number; count: number },
  info: RunInfo,
  record: RunRecord,
  root?: string,
): string {
  const path = join(dir, SHARD_RECORD_FILE);
  writeReportFileInPieces(path, shardRecordPieces(shard, info, record, root));
  return path;
}

/**
 * The shard record's JSON (a {@link ShardRecord}, its record's tests last, and a newline) a test at a
 * time: each test is scrubbed, given its digest and serialised only when its turn comes, so neither
 * the scrubbed tests nor the whole JSON (about 10 MB for a thorough run, one string at the run's peak
 * of memory) are held at once.
 */
export function* shardRecordPieces(
  shard: { index: number; count: number },
  info: RunInfo,
  record: RunRecord,
  root?: string,
): Generator<string> {
  // Everything but the tests, the tests last and empty: the record's JSON ends with `"tests":[]}}`.
  // Scrubbed as the tests are: the record's own fields (its unhandled errors' text) may hold a credential too.
  const { tests, ...rest } = record;
  const empty: ShardRecord = { format: FORMAT, shard, ...(root ? { root } : {}), info, record: { ...rest, tests: [] } };
  const frame = JSON.stringify(scrubSecrets(empty));
  const end = ']}}';
  if (!frame.endsWith(`[${end}`))
    throw new ToolkitError(
      'PCC_INTERNAL',
      `a shard record's JSON ends with ${frame.slice(-20)}, not its tests`,
      "keep the record's tests the last field of a shard record (shard-record.ts)",
    );
  yield frame.slice(0, -end.length);
  for (const [i, test] of tests.entries()) {
    const t = scrubSecrets(test);
    yield `${i > 0 ? ',' : ''}${JSON.stringify({ ...t, coverage: digestOf(t) })}`;
  }
  yield `${end}\n`;
}

/** Reads the shard record of a reports folder; a folder without one, or with another format, is a usage error. */
export function readShardRecord(dir: string): ShardRecord {
  const path = join(dir, SHARD_RECORD_FILE);
  if (!existsSync(path)) {
    throw new ToolkitError(
      'PCC_USAGE',
      `${dir} holds no ${SHARD_RECORD_FILE}`,
      'give the reports folders of runs made with --shard i/n (each shard writes one)',
    );
  }
  let parsed: Partial<ShardRecord>;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ShardRecord>;
  } catch (e) {
    throw new ToolkitError(
      'PCC_USAGE',
      `${path} is not valid JSON: ${(e as Error).message}`,
      'run the shard again; the file is written whole or not at all, so it was changed afterwards',
      { cause: e },
    );
  }
  if (parsed.format !== FORMAT || !parsed.shard || !parsed.info || !Array.isArray(parsed.record?.tests)) {
    throw new ToolkitError(
      'PCC_USAGE',
      `${path} is not a shard record of this version (${String(parsed.format)})`,
      `merge shards made by the same version of the toolkit (${FORMAT})`,
    );
  }
  return parsed as ShardRecord;
}
