/**
 * The assumptions of public-profile.md and sandbox.md as data. Nothing here is a requirement of the
 * spec: each value is a setting a user can override, and a deviation from it is a warning (a failure
 * only under --strict).
 */

import { enums } from '../generated/contract.ts';

/** Transaction statuses (spec, States and transitions), as the contract lists them. */
export const TRANSACTION_STATUSES = enums.TransactionStatus;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Operation statuses (public profile), as the contract lists them. */
export const OPERATION_STATUSES = enums.OperationStatus;

/** The statuses a transaction or operation passes through; every other status of the contract is final. */
const PENDING: readonly string[] = ['INITIATED', 'IN_PROGRESS'];
const finalOf = (statuses: readonly string[]) => statuses.filter((s) => !PENDING.includes(s));

/** A directed graph of legal direct transitions between statuses. */
export type TransitionGraph = Readonly<Record<string, readonly string[]>>;

/** The profile: which assumptions hold for a target. */
export interface Profile {
  name: 'sandbox' | 'public';
  /** Legal direct transitions of a transaction; a status with no edges is absorbing. */
  transactionGraph: TransitionGraph;
  /** Statuses after which polling may stop (SUCCESS may still become REVERTED). */
  transactionFinal: readonly string[];
  operationGraph: TransitionGraph;
  operationFinal: readonly string[];
  /** Hosts of the vendor's production service: refused without --allow-production. */
  productionHosts: readonly string[];
  /** Webhook signature header and retry schedule in seconds (public profile). */
  webhook: { signatureHeader: string; retrySchedule: readonly number[] };
  /** How `expires_in` is read: the public profile publishes no unit; seconds is the common reading. */
  expiresInUnit: 'seconds';
  /** The outcome table by `amount % 100` (sandbox.md); empty when the target is not a sandbox. */
  outcomes: Readonly<
    Record<number, { final: TransactionStatus | 'WAIT_IN_PROGRESS' | 'WAIT_INITIATED'; tip?: number; refusesCancel?: boolean }>
  >;
  /** The amounts a sandbox accepts (sandbox.md). */
  amountRange: readonly [number, number];
  /**
   * Whether a run with known defects (findings a `--baseline` entry knows) can be certified. Neither
   * built-in profile allows it: a known defect is still a defect of the service. @default false
   */
  certifyWithKnownDefects: boolean;
}

/**
 * The default transition graph (a profile setting): INITIATED to IN_PROGRESS, CANCELED, EXPIRED or
 * FAILED; IN_PROGRESS to SUCCESS, DECLINED, CANCELED, FAILED or EXPIRED; SUCCESS to REVERTED; other
 * final states absorbing.
 */
export const DEFAULT_TRANSACTION_GRAPH: TransitionGraph = {
  INITIATED: ['IN_PROGRESS', 'CANCELED', 'EXPIRED', 'FAILED'],
  IN_PROGRESS: ['SUCCESS', 'DECLINED', 'CANCELED', 'FAILED', 'EXPIRED'],
  SUCCESS: ['REVERTED'],
  CANCELED: [],
  DECLINED: [],
  REVERTED: [],
  EXPIRED: [],
  FAILED: [],
};

/** Operations: INITIATED to IN_PROGRESS (or straight to a failure), IN_PROGRESS to a final status. */
export const DEFAULT_OPERATION_GRAPH: TransitionGraph = {
  INITIATED: ['IN_PROGRESS', 'FAILED', 'EXPIRED'],
  IN_PROGRESS: ['SUCCESS', 'FAILED', 'EXPIRED'],
  SUCCESS: [],
  FAILED: [],
  EXPIRED: [],
};

/** The sandbox outcome table (sandbox.md, Transactions). */
export const SANDBOX_OUTCOMES: Profile['outcomes'] = {
  51: { final: 'DECLINED' },
  52: { final: 'FAILED' },
  53: { final: 'EXPIRED' },
  54: { final: 'WAIT_IN_PROGRESS' },
  55: { final: 'WAIT_INITIATED' },
  56: { final: 'SUCCESS', refusesCancel: true },
  57: { final: 'SUCCESS', tip: 100 },
};

const common = {
  transactionGraph: DEFAULT_TRANSACTION_GRAPH,
  transactionFinal: finalOf(TRANSACTION_STATUSES),
  operationGraph: DEFAULT_OPERATION_GRAPH,
  operationFinal: finalOf(OPERATION_STATUSES),
  productionHosts: ['api-payment.lab4pay.com'],
  webhook: { signatureHeader: 'Signature', retrySchedule: [5, 10, 20, 40, 80] },
  expiresInUnit: 'seconds',
  amountRange: [1, 99_999_999],
  certifyWithKnownDefects: false,
} as const;

/** The profiles by name. `sandbox` adds the virtual terminal's documented behaviour. */
export const PROFILES: Readonly<Record<Profile['name'], Profile>> = {
  public: { name: 'public', ...common, outcomes: {} },
  sandbox: { name: 'sandbox', ...common, outcomes: SANDBOX_OUTCOMES },
};

/** The profile of the given name, with overrides applied (a shallow merge). */
export function resolveProfile(name: Profile['name'], overrides: Partial<Omit<Profile, 'name'>> = {}): Profile {
  return { ...PROFILES[name], ...overrides };
}

/** The expected final status of a sandbox amount that is left alone (no cancel). */
export function expectedOutcome(profile: Profile, amount: number): { final: string; tip: number } {
  const o = profile.outcomes[amount % 100];
  if (!o) return { final: 'SUCCESS', tip: 0 };
  const final = o.final === 'WAIT_IN_PROGRESS' || o.final === 'WAIT_INITIATED' ? 'EXPIRED' : o.final;
  return { final, tip: o.tip ?? 0 };
}
