/**
 * What the reports say about the run besides its tests: target, versions, contract hash, integrator
 * and terminal ids. Never a secret: nothing here comes from the vault's secret fields.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BaselineEntry, ConnectionInfo, Exchange } from '../core/index.ts';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import type { RunRecord } from './records.ts';

/** The run, as the reports describe it. */
export interface RunInfo {
  tool: { name: string; version: string };
  target: { kind: string; baseUrl: string };
  profile: string;
  /** The terminal mode (`auto`, `manual`, `observe`). */
  terminalMode: string;
  seed: number;
  strict: boolean;
  integratorId: string;
  /** The suites chosen with `--suite`; empty when every suite was run. */
  suitesSelected: string[];
  /** The `--grep` the run was restricted by, if any. */
  grep?: string;
  /** The contract the checks were generated from, and its SHA-256 (hex). */
  contract: { file: string; sha256: string };
  /** Simulator fault switches that were on (sim target only). */
  faults: string[];
  /** Present below 1: the probability each fault switch acted at a decision (`--sim-fault-rate`). */
  faultRate?: number;
  /** The baseline the run used (`--baseline`): its file, entries and the moment expiry was judged at (merge-reports judges it again over the shards). */
  baseline?: { file: string; entries: BaselineEntry[]; now: number };
  /** Present when the reports are signed (`--sign-key`): the signing key's id (SHA-256 of its public key). */
  signedBy?: { keyid: string };
  /** Coverage kinds the run must cover whole (`--require-coverage`); absent or empty: none. */
  requireCoverage?: string[];
  /** Coverage items the gate does not require, each with why (`coverage.exclude`); absent or empty: none. */
  coverageExclude?: { item: string; reason: string }[];
  /** Whether the profile certifies a run with known defects (`--baseline`); absent: it does not. */
  certifyWithKnownDefects?: boolean;
  /** Check ids turned off by `checks.disable` / `--disable-check` (absent or empty: none). */
  checksDisabled?: string[];
  /** The run's labels (`--label firmware=4.2.1`), in the order given; absent or empty: none. */
  labels?: Record<string, string>;
  /** How the connections to a URL target were made (absent for the simulator and the Pact mock). */
  connection?: ConnectionInfo;
  startedAt: string;
  finishedAt: string;
}

/** The package root (core/package-root.ts), as the report writers and the engine import it. */
export { PACKAGE_ROOT };

/** The contract file the toolkit checks against (its hash goes into every report). */
export const CONTRACT_FILE = 'contracts/pay-connect.openapi.yaml';

/** The tool's name and version, from package.json. */
export function toolInfo(): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

/** The SHA-256 of the contract file. */
export function contractSha256(): string {
  return sha256Hex(readFileSync(join(PACKAGE_ROOT, CONTRACT_FILE)));
}

/**
 * What a command knows of its own run. The rest of {@link RunInfo} is the same for every command: the
 * tool and the contract it judged by, no suites or faults unless said, and the clock when it ends.
 */
export type RunFacts = Omit<RunInfo, 'tool' | 'contract' | 'suitesSelected' | 'faults' | 'finishedAt'> &
  Partial<Pick<RunInfo, 'tool' | 'contract' | 'suitesSelected' | 'faults' | 'finishedAt'>>;

/** The run's facts as the reports hold them: the one place a {@link RunInfo} is made (merge-reports merges the shards' own). */
export function runInfoOf(facts: RunFacts): RunInfo {
  const { startedAt, finishedAt, tool, contract, ...rest } = facts;
  // Read (the package file, the contract's bytes) only when the caller did not say.
  return {
    tool: tool ?? toolInfo(),
    contract: contract ?? { file: CONTRACT_FILE, sha256: contractSha256() },
    suitesSelected: [],
    faults: [],
    ...rest,
    startedAt,
    finishedAt: finishedAt ?? new Date().toISOString(),
  };
}

/** The SHA-256 of `data`, lower-case hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * The terminal ids the service named in its answers (pairing result, configuration, slips), most
 * often seen first: the run's main pairing comes first, pairings made by single tests after it.
 */
export function terminalIdsOf(record: RunRecord): string[] {
  const seen = new Map<string, number>();
  for (const t of record.tests) {
    for (const ex of t.exchanges as Partial<Exchange>[]) {
      const body = ex.response?.body as { terminal_id?: unknown } | undefined;
      if (ex.response?.status === 200 && typeof body?.terminal_id === 'string' && body.terminal_id !== '')
        seen.set(body.terminal_id, (seen.get(body.terminal_id) ?? 0) + 1);
    }
  }
  return [...seen].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

/** The environment key of a label: its own key, unless one of the run's own keys already has it. */
export function labelKey(key: string, taken: Readonly<Record<string, string>>): string {
  return key in taken ? `label.${key}` : key;
}

/** `main (+N more)`, or `(not seen)`. */
export function terminalIdText(ids: readonly string[]): string {
  if (ids.length === 0) return '(not seen)';
  return ids.length === 1 ? ids[0]! : `${ids[0]} (+${ids.length - 1} more, from pairings made by single tests)`;
}
