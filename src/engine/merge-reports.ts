/**
 * `merge-reports`: one set of reports from the shards of a run (`run --shard i/n` in n CI jobs). It
 * reads each shard's run-record.json, refuses shards that do not make one run (a part missing or
 * given twice, other settings, another contract), joins their records and hands them to the writer a
 * run uses: summary.json (with every shard listed), junit.xml, the certification, coverage.json, the
 * Allure results and the HTML are those of the shards' tests as one run would have written them.
 */
import { rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { ToolkitError } from '../core/index.ts';
import {
  type AllReports,
  type RunInfo,
  type RunRecord,
  type ShardRecord,
  type Summary,
  buildSummary,
  isCompleteRun,
  judgeBaseline,
  prepareReportsDir,
  readShardRecord,
  reportMessageOptions,
  writeReports,
} from '../report/index.ts';
import { loadSigningKey, signReports } from '../attest/index.ts';
import { PACKAGE_ROOT } from './run-conformance.ts';
import { TRANSCRIPT_FILE, mergeTranscripts, summaryExtras } from '../transcript/index.ts';

export interface MergeOptions {
  /** The shards' reports folders. */
  dirs: string[];
  /** Where the merged reports go. */
  outDir: string;
  html: boolean;
  /** An Ed25519 private key (PEM) to sign the merged reports with (certificate.intoto.json). */
  signKey?: string;
}

export interface MergeResult {
  exitCode: 0 | 1 | 2;
  summary: Summary;
  record: RunRecord;
  reports: AllReports;
}

/** Settings every shard of one run shares; a difference means the shards are not one run. */
const SAME: readonly [string, (i: RunInfo) => unknown][] = [
  ['toolkit version', (i) => `${i.tool.name} ${i.tool.version}`],
  ['contract', (i) => i.contract.sha256],
  // The simulator's address is each shard's own; a service's is the service.
  ['target', (i) => (i.target.kind === 'url' ? i.target.baseUrl : i.target.kind)],
  // The seed draws every property run and sequence: the replay the merged reports print must replay every shard.
  ['seed', (i) => i.seed],
  ['profile', (i) => i.profile],
  ['terminal mode', (i) => i.terminalMode],
  ['strict', (i) => i.strict],
  ['integrator id', (i) => i.integratorId],
  ['suites', (i) => [...i.suitesSelected].sort().join(',')],
  ['simulator faults', (i) => [...i.faults].sort().join(',')],
  ['disabled checks', (i) => [...(i.checksDisabled ?? [])].sort().join(',')],
  // The merged coverage is judged against one list of exclusions: every shard's must be it.
  [
    'coverage exclusions',
    (i) =>
      (i.coverageExclude ?? [])
        .map((e) => e.item)
        .sort()
        .join(', '),
  ],
  [
    'labels',
    (i) =>
      Object.entries(i.labels ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .sort()
        .join(', '),
  ],
  // A shard that accepted any certificate must not hide behind one that verified.
  ['TLS verification', (i) => i.connection?.verification ?? ''],
];

/** The shards in order, or a usage error naming what does not fit. */
export function orderShards(shards: readonly (ShardRecord & { dir: string })[]): (ShardRecord & { dir: string })[] {
  if (shards.length === 0)
    throw new ToolkitError(
      'PCC_USAGE',
      'merge-reports needs the reports folders of the shards',
      "give every shard's folder, such as: merge-reports shard-1 shard-2",
    );
  const count = shards[0]!.shard.count;
  const other = shards.find((s) => s.shard.count !== count);
  if (other)
    throw new ToolkitError(
      'PCC_USAGE',
      `${other.dir} is shard ${other.shard.index}/${other.shard.count}, but ${shards[0]!.dir} is of ${count} shards`,
      'merge the shards of one run only',
    );
  const byIndex = new Map<number, ShardRecord & { dir: string }>();
  for (const s of shards) {
    const twice = byIndex.get(s.shard.index);
    if (twice)
      throw new ToolkitError(
        'PCC_USAGE',
        `shard ${s.shard.index}/${count} is given twice (${twice.dir} and ${s.dir})`,
        "give each shard's folder once",
      );
    byIndex.set(s.shard.index, s);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    throw new ToolkitError(
      'PCC_USAGE',
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} missing: ` +
        `a merge of part of the run would pass what was never tested`,
      'give the reports folder of every shard (a CI job that failed must be re-run first)',
    );
  }
  const ordered = [...byIndex.values()].sort((a, b) => a.shard.index - b.shard.index);
  const first = ordered[0]!;
  for (const [what, of] of SAME) {
    const odd = ordered.find((s) => of(s.info) !== of(first.info));
    if (odd)
      throw new ToolkitError(
        'PCC_USAGE',
        `the shards differ in ${what}: ${String(of(first.info)) || '(none)'} in ${first.dir}, ${String(of(odd.info)) || '(none)'} in ${odd.dir}`,
        'run every shard with the same settings and toolkit version',
      );
  }
  return ordered;
}

/** A shard's test files, from the root it ran in (another CI job's checkout) to `root` (this one's). */
function rooted(s: ShardRecord, root: string | undefined): RunRecord['tests'] {
  const from = s.root;
  if (!root || !from || from === root) return s.record.tests;
  const under = from.endsWith(sep) ? from : `${from}${sep}`;
  return s.record.tests.map((t) => (t.file.startsWith(under) ? { ...t, file: join(root, relative(from, t.file)) } : t));
}

/**
 * The shards' records as one run's. `root`: this package's root; each shard's test files, recorded
 * under the root it ran in, are placed under it, so the merged reports name them as one run here would.
 */
export function mergeRecords(shards: readonly ShardRecord[], root?: string): { record: RunRecord; info: RunInfo } {
  const first = shards[0]!;
  const starts = shards.map((s) => Date.parse(s.record.startedAt)).filter(Number.isFinite);
  const startedAt = starts.length > 0 ? new Date(Math.min(...starts)).toISOString() : first.record.startedAt;
  const record: RunRecord = {
    tests: shards.flatMap((s) => rooted(s, root)),
    unhandled: shards.flatMap((s) => s.record.unhandled.map((u) => `shard ${s.shard.index}/${s.shard.count}: ${u}`)),
    ...(shards.some((s) => s.record.suiteErrors?.length)
      ? { suiteErrors: shards.flatMap((s) => (s.record.suiteErrors ?? []).map((u) => `shard ${s.shard.index}/${s.shard.count}: ${u}`)) }
      : {}),
    startedAt,
    // The run took what its slowest shard took (shards run side by side); the time between CI jobs
    // starting is the CI's, not the run's. Each shard's own times are listed in the summary.
    durationMs: Math.max(...shards.map((s) => s.record.durationMs)),
  };
  const baseUrls = [...new Set(shards.map((s) => s.info.target.baseUrl))];
  const info: RunInfo = {
    ...first.info,
    target: { kind: first.info.target.kind, baseUrl: baseUrls.join(', ') },
    startedAt: shards.map((s) => s.info.startedAt).sort()[0]!,
    finishedAt: shards
      .map((s) => s.info.finishedAt)
      .sort()
      .at(-1)!,
  };
  return { record, info };
}

/** Merges the shards' reports into `outDir`. */
export async function mergeReports(opts: MergeOptions, io: { stderr: (s: string) => void }): Promise<MergeResult> {
  opts = { ...opts, outDir: resolve(opts.outDir) };
  const shards = orderShards(opts.dirs.map((d) => ({ ...readShardRecord(resolve(d)), dir: d })));
  // A signing key that cannot be used stops the merge before anything is written.
  const signer = opts.signKey ? loadSigningKey(opts.signKey, process.env) : undefined;
  await prepareReportsDir(opts.outDir);
  const { record, info: merged } = mergeRecords(shards, PACKAGE_ROOT);
  const info: RunInfo = { ...merged, ...(signer ? { signedBy: { keyid: signer.keyid } } : {}) };
  // The shards' baseline judged again over the whole: an entry no shard needed is resolved only now.
  const b = info.baseline;
  const complete = isCompleteRun(record, info);
  const baseline = b ? judgeBaseline(b.file, { version: 1, entries: b.entries }, record, { now: b.now, complete }) : undefined;
  const summary = buildSummary(record, info.tool, info.target, {
    seed: info.seed,
    startedAt: info.startedAt,
    finishedAt: info.finishedAt,
    labels: info.labels,
    ...(baseline ? { baseline } : {}),
  });
  if ((info.checksDisabled ?? []).length > 0) summary.checksDisabled = [...info.checksDisabled!];
  if (info.connection) summary.connection = info.connection;
  summary.shards = shards.map((s) => ({
    ...s.shard,
    seed: s.info.seed,
    baseUrl: s.info.target.baseUrl,
    startedAt: s.info.startedAt,
    finishedAt: s.info.finishedAt,
    tests: s.record.tests.length,
  }));
  // The run's own writer, over the shards' records: the merge is written as the whole run would be.
  const {
    exitCode,
    record: written,
    reports,
  } = await writeReports(opts.outDir, record, summary, info, {
    html: opts.html,
    root: PACKAGE_ROOT,
    messages: reportMessageOptions(process.env),
    stderr: io.stderr,
    afterFiles: async (held) => {
      // One transcript of the shards' (none when a shard has none: an older toolkit's, or a stale one is not left behind).
      const transcript = await mergeTranscripts(
        shards.map((s) => ({ dir: resolve(s.dir), index: s.shard.index })),
        opts.outDir,
        {
          info,
          run: { startedAt: held.startedAt, durationMs: held.durationMs, unhandled: [...held.unhandled] },
          summary: summaryExtras(summary),
        },
      );
      if (!transcript) rmSync(join(opts.outDir, TRANSCRIPT_FILE), { force: true });
      if (signer) signReports(opts.outDir, { privateKey: signer.privateKey, record: held, summary, info, root: PACKAGE_ROOT });
    },
  });
  return { exitCode, summary, record: written, reports };
}
