/**
 * The public API of payconnect-conformance. Suites, generators and users import from here only.
 */
export {
  ERROR_CODES,
  ToolkitError,
  isToolkitError,
  severityFor,
  META_KEY,
  OPERATOR_META_KEY,
  countsAsFailure,
  entryMatches,
  markKnown,
} from './core/index.ts';
export type {
  BaselineEntry,
  Confirmation,
  KnownMark,
  ErrorCode,
  Exchange,
  Finding,
  OperationEntry,
  OperatorEntry,
  RuleSource,
  Severity,
  TestMeta,
} from './core/index.ts';

export { configJsonSchema, defineConfig, resolveConfig } from './config/index.ts';
export type { ResolvedConfig, UserConfig } from './config/index.ts';

export { PROFILES, resolveProfile, expectedOutcome, isReachable } from './profile/index.ts';
export type { Profile } from './profile/index.ts';

export { CHECKS, getCheck, runCheck, operationFor, isIso4217, isIso3166Alpha2 } from './checks/index.ts';
export type { Check, CheckId, CheckInput, CheckOutcome, ConvergenceObservation } from './checks/index.ts';
export {
  JUDGES,
  RULES,
  RULE_IDS_BY_JUDGE,
  canonicalRuleId,
  explainDisableCheck,
  listRules,
  ruleById,
  rulesOf,
  validateDisableCheck,
} from './checks/index.ts';
export type { Judge, Rule, RuleListing } from './checks/index.ts';
export type { PairingIdentity } from './checks/pairing-checks.ts';

export { createPayConnectClient, Redactor } from './client/index.ts';
export type { PayConnectClient, PayConnectResponse } from './client/index.ts';

export { startWebhookReceiver, verifySignature, signBody } from './webhooks/index.ts';
export type { Delivery, WebhookReceiver } from './webhooks/index.ts';

export { loadVault, saveVaultEntry, removeVaultEntry, findPairings } from './vault/index.ts';
export type { VaultEntry, PairingCredentials } from './vault/index.ts';

export { observe } from './convergence/index.ts';
export { createTerminalDriver } from './terminal/index.ts';
export type { AttendStep, Outcome, Plan, TerminalDriver } from './terminal/index.ts';

// The runtime a suite runs on (scenario, harness, scope, pairings) is the `./suite` entry point (src/suite.ts).
export { Pairing, ScenarioBlocked } from './runtime/index.ts';
export type { RunContext } from './runtime/index.ts';

export { FAULTS } from './simulator/faults.ts';
export type { SimulatorHandle, SimulatorOptions, FaultId } from './simulator/index.ts';

type StartSimulator = typeof import('./simulator/index.ts').startSimulator;
/**
 * Starts the embedded Pay-Connect sandbox (see `payconnect-conformance sim`). Loaded on first use:
 * the suites import this entry point in every worker of a run, where the simulator (some 30 modules
 * and node-forge) has no business (it runs in the run's own process, when it is the target at all).
 */
export async function startSimulator(...args: Parameters<StartSimulator>): ReturnType<StartSimulator> {
  return (await import('./simulator/index.ts')).startSimulator(...args);
}

export { SUITE_NAMES } from './config/index.ts';
/** Every suite a run includes by default (the same list as SUITE_NAMES, under its earlier name). */
export { SUITE_NAMES as ALL_SUITES } from './config/index.ts';

type RunConformance = typeof import('./engine/run-conformance.ts').runConformance;
/**
 * Runs the conformance suites against the configured target (see `payconnect-conformance run`).
 * The runner loads vitest's node API on first use, so code that only uses the harness (the suites
 * themselves, inside vitest's worker) does not pay for it.
 */
export async function runConformance(...args: Parameters<RunConformance>): ReturnType<RunConformance> {
  return (await import('./engine/run-conformance.ts')).runConformance(...args);
}

export {
  operations,
  validators,
  schemaSources,
  webhooks as webhookEvents,
  type ContractOperation,
  type OperationId,
} from './generated/contract.ts';
export type { RunResult } from './engine/run-conformance.ts';
/** The pairing probes the pairing suite sends and the Pact catalogue declares: one list for both. */
export { INVALID_GENERATE_BODIES, PACT_BASE_AMOUNT, PAIRING_PROBES } from './pact/common/names.ts';
