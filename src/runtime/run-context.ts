/**
 * What the run tells the suites: everything a worker needs to reach the target, serialisable so it
 * can cross into vitest's worker through `provide`/`inject`. Secrets never travel here.
 */
import type { TransportSettings } from '../transport/index.ts';
import type { BaselineEntry } from '../core/index.ts';

export interface RunContext {
  targetKind: 'sim' | 'url' | 'pact';
  baseUrl: string;
  integratorId: string;
  profile: 'sandbox' | 'public';
  strict: boolean;
  /**
   * The options of the run's command line that shaped its tests (target, --sim-fault, --strict, ...),
   * as a re-run repeats them; absent when the run was not started from a command line.
   */
  rerunOptions?: string[];
  terminal: 'auto' | 'manual' | 'observe';
  /** Whether a person can be prompted (stdin and stdout are a TTY). */
  interactive: boolean;
  deadlineMs: number;
  /** How long to keep watching after a final status. */
  settleMs: number;
  /** Present: the settle window scales to the service's pace (see convergence/observe.ts settleScale), `settleMs` its ceiling. */
  settleScale?: { steps: number; minMs: number };
  /**
   * How long after a final status by polling its webhook is still waited for (a delivery comes as the
   * status changes; a refused one is retried seconds later). @default the deadline
   */
  webhookGraceMs?: number;
  seed: number;
  /** fast-check runs for property and stateful suites. */
  runs: number;
  /** Where pairing credentials are kept. */
  vaultPath: string;
  /** OTPs given by the user, in order. */
  otps: string[];
  /** Whether OTPs may be minted as sandbox.md allows (any six digits but 000000, once). */
  mintOtps: boolean;
  webhookListen: { host: string; port: number };
  webhookPublicUrl?: string;
  /** The receiver serves HTTPS with these PEM files (read by each worker's hub). */
  webhookTls?: { certFile: string; keyFile: string };
  /** Largest amount sent to a target that is not a sandbox. */
  maxAmount: number;
  /** The target is a sandbox (sim, or `--profile sandbox`): amounts are not capped. */
  sandbox: boolean;
  /** Request timeout. */
  timeoutMs: number;
  /** --max-response-time: an answer slower than this is a finding (response.time-within-limit). @default none: slowness is not judged */
  maxResponseTimeMs?: number;
  /** CA file, client certificate and proxy of the connections to the target (paths: each worker reads them). */
  transport?: TransportSettings;
  /** How many vitest workers (processes) the run uses. @default 1 */
  workers?: number;
  /**
   * How many terminals the run drives at once, dealt out over the workers: a worker with several runs
   * as many tests at a time, each on a terminal of its own (a lane). @default `workers`
   */
  terminals?: number;
  /**
   * With several workers: the client ids of the target's vault pairings when the run began, in order
   * (not secret), so each worker takes its own share of them.
   */
  vaultPairings?: string[];
  /** The port (127.0.0.1) of the run's ledger hub, which every worker's ledger links to. @default none: each worker keeps its own */
  ledgerPort?: number;
  /**
   * Set when the run's webhook receiver listens on a port chosen for this run only (no later run can
   * see deliveries there): the run's id, saved with each pairing it makes with a webhook_url, so that
   * the run unpairs them at its end. @default none: pairings are kept for later runs
   */
  ephemeralRun?: string;
  /** Check ids not to run: a scope neither runs nor files them. */
  disabledChecks?: string[];
  /** When the run's time budget ends (epoch ms): waits are cut to it, and tests not finished by then stop. */
  runDeadlineAt?: number;
  /**
   * A manual session's plan: the tests that need the operator, in run order (numbers the steps the
   * operator sees). Absent outside manual mode.
   */
  manualPlan?: { test: string; outcome: string }[];
  /** Tests that passed earlier in the session being resumed (`--resume`): not run again. */
  carried?: string[];
  /**
   * The baseline's entries (`--baseline`) and the run's start (ms): a finding a live entry matches is
   * marked known as its test ends, and fails nothing. Expired entries mark nothing.
   */
  baseline?: { entries: BaselineEntry[]; now: number };
  /**
   * The staging folder of the run's transcript: each worker appends its events (redacted) to a file
   * of its own there, and the engine assembles them into transcript.jsonl.gz. @default none: no transcript
   */
  transcriptDir?: string;
}

/** The key under which the run context is provided to the suites. */
export const RUN_CONTEXT_KEY = 'payconnect';
