/**
 * Every command, in the order the usage lists them: its name, its line in the usage, and its module,
 * loaded only when it runs (Pact's native core, Allure and vitest are heavy, and a command that does
 * not use them should not pay for them at every start). Each module is commands/<name>.ts.
 */
import type { Command } from '../command.ts';

export interface CommandEntry {
  name: string;
  /** Its line in the usage. */
  summary: string;
  load: () => Promise<{ default: Command }>;
}

export const COMMAND_LIST: readonly CommandEntry[] = [
  { name: 'run', summary: 'run the conformance suites against a target (default: the embedded simulator)', load: () => import('./run.ts') },
  { name: 'sim', summary: 'start the embedded Pay-Connect sandbox on loopback', load: () => import('./sim.ts') },
  { name: 'pair', summary: 'pair with a terminal by OTP and save the credentials to the vault', load: () => import('./pair.ts') },
  { name: 'unpair', summary: 'unpair a vault pairing and remove it from the vault', load: () => import('./unpair.ts') },
  {
    name: 'report',
    summary: 'regenerate the Allure HTML report of the last run and serve it on 127.0.0.1',
    load: () => import('./report.ts'),
  },
  { name: 'merge-reports', summary: 'merge the reports of CI shards (run --shard i/n) into one', load: () => import('./merge-reports.ts') },
  {
    name: 'compare',
    summary: "what changed between two runs' reports: flipped tests, new findings, shapes, timings (exit 1 on a regression)",
    load: () => import('./compare.ts'),
  },
  {
    name: 'rejudge',
    summary: 'judge a run again from its transcript with the installed toolkit (no network)',
    load: () => import('./rejudge.ts'),
  },
  {
    name: 'verify-certificate',
    summary: "check a signed run's reports: signature, digests, the complete set of tests, the re-judged verdict",
    load: () => import('./verify-certificate.ts'),
  },
  {
    name: 'baseline',
    summary: "baseline write: known defects from a run's findings, with a reason and an expiry (run --baseline)",
    load: () => import('./baseline.ts'),
  },
  {
    name: 'verify-pacts',
    summary: 'verify pact files against a service (provider states through the public API)',
    load: () => import('./verify-pacts.ts'),
  },
  { name: 'publish-pacts', summary: 'publish pact files to a Pact Broker', load: () => import('./publish-pacts.ts') },
  {
    name: 'check-pact',
    summary: "check an integrator's consumer pact against the contract (is every interaction possible?)",
    load: () => import('./check-pact.ts'),
  },
  {
    name: 'check-receiver',
    summary: "judge an integrator's webhook endpoint (signatures, duplicates, bad bodies)",
    load: () => import('./check-receiver.ts'),
  },
  {
    name: 'certify-client',
    summary: "judge an integrator's client: runs it against the simulator and judges what it sent",
    load: () => import('./certify-client.ts'),
  },
];
