/**
 * Options from the environment: `PAYCONNECT_` + the flag in upper snake case. Lists are
 * comma-separated, booleans are 1, true, 0 or false. A `PAYCONNECT_*` variable that is empty, or
 * that no part of the toolkit reads, is refused: CI systems define an undefined variable as empty and
 * nobody sees a misspelt name, and either would otherwise fall back to a default (the simulator
 * instead of staging) while the run stays green.
 */
import { ToolkitError } from '../core/errors.ts';
import { invalidValue, type Candidate, type Candidates } from './candidate.ts';
import { envVarOf, RUN_FLAGS } from './flags.ts';
import { closest, didYouMean } from './messages.ts';
import type { OptionKey } from './types.ts';

const TRUE = ['1', 'true'];
const FALSE = ['0', 'false'];

/** The signing key's variable as the documentation names it, beside PAYCONNECT_SIGN_KEY. */
const SIGNING_KEY_FILE = 'PAYCONNECT_SIGNING_KEY_FILE';

/** `PAYCONNECT_NO_HTML=1` reads more naturally than `PAYCONNECT_HTML=0`, so both work. */
const NO_HTML = 'PAYCONNECT_NO_HTML';

/**
 * The `PAYCONNECT_*` variables that are not a flag's and are read elsewhere, or named by the toolkit
 * for people to set in their own shell (a test in env.test.ts finds every such name of src here).
 */
const OTHER_VARIABLES: Readonly<Record<string, string>> = {
  [SIGNING_KEY_FILE]: 'the signing key, as the documentation names it',
  [NO_HTML]: 'no HTML report',
  PAYCONNECT_SIGNING_KEY_PASSPHRASE: "the signing key's passphrase (attest)",
  PAYCONNECT_CLIENT_KEY_PASSPHRASE: "the client key's passphrase (transport)",
  PAYCONNECT_VAULT_JSON: 'a whole vault for CI (vault)',
  PAYCONNECT_MODULE_CACHE: "the suites' module cache folder (engine)",
  PAYCONNECT_SPEC_BASE_URL: 'where the reports link the spec documents (report)',
  PAYCONNECT_STATEFUL_REPLAY: 'a model-based counterexample to replay (suites)',
  PAYCONNECT_STATEFUL_REPLAY_COMMANDS: 'its commands (suites)',
  PAYCONNECT_STATEFUL_TRACE: 'trace the model-based runs (suites)',
  PAYCONNECT_TEST_CRASH_AFTER_PAIRING: "the selftests' crash switch (runtime)",
  PAYCONNECT_WEBHOOK_SECRET: "check-receiver's webhook secret",
  PAYCONNECT_BASE_URL: "given to the integrator's client by certify-client",
  PAYCONNECT_TOKEN: 'named in the reproducers (curl) the reports print',
  PAYCONNECT_CLIENT_SECRET: 'named in the reproducers (curl) the reports print',
  PAYCONNECT_WEBHOOK_KEY: 'named in the reproducers (curl) the reports print',
};

/** Every `PAYCONNECT_*` variable the toolkit knows. */
export const KNOWN_VARIABLES: readonly string[] = [...RUN_FLAGS.map((flag) => envVarOf(flag)), ...Object.keys(OTHER_VARIABLES)];

/**
 * Reads every option the environment sets.
 *
 * @throws ToolkitError PCC_CONFIG_INVALID for a `PAYCONNECT_*` variable that is empty or unknown, a
 *   boolean that is not 1, true, 0 or false, or PAYCONNECT_HTML and PAYCONNECT_NO_HTML saying
 *   opposite things
 */
export function readEnv(env: NodeJS.ProcessEnv): Candidates {
  refuseEmptyOrUnknown(env);
  const out: Candidates = {};
  for (const flag of RUN_FLAGS) {
    const name = envVarOf(flag);
    const candidate = readVariable(env, name, flag.type === 'boolean', flag.key);
    if (candidate) out[flag.key] = candidate;
  }
  const signKey = readVariable(env, SIGNING_KEY_FILE, false, 'signKey');
  if (signKey) {
    if (out.signKey && out.signKey.value !== signKey.value) {
      throw new ToolkitError(
        'PCC_CONFIG_INVALID',
        `invalid signKey from environment variables ${SIGNING_KEY_FILE} and PAYCONNECT_SIGN_KEY: they name different files`,
        `set only one of ${SIGNING_KEY_FILE} and PAYCONNECT_SIGN_KEY`,
      );
    }
    out.signKey ??= signKey;
  }
  const noHtml = readVariable(env, NO_HTML, true, 'html');
  if (noHtml) {
    const html: Candidate = { ...noHtml, value: !noHtml.value };
    if (out.html && out.html.value !== html.value) {
      throw new ToolkitError(
        'PCC_CONFIG_INVALID',
        `invalid html from environment variables ${NO_HTML} and PAYCONNECT_HTML: they contradict each other`,
        `set only one of ${NO_HTML} and PAYCONNECT_HTML`,
      );
    }
    out.html ??= html;
  }
  return out;
}

function refuseEmptyOrUnknown(env: NodeJS.ProcessEnv): void {
  const ours = Object.keys(env)
    .filter((name) => name.startsWith('PAYCONNECT_'))
    .sort();
  const empty = ours.find((name) => env[name]!.trim() === '');
  if (empty) {
    throw new ToolkitError(
      'PCC_CONFIG_INVALID',
      `environment variable ${empty} is set but empty`,
      `give ${empty} a value, or unset it (a CI variable that is not defined often arrives empty)`,
    );
  }
  const unknown = ours.find((name) => !KNOWN_VARIABLES.includes(name));
  if (unknown) {
    // Compared without the prefix every name shares, which would make every short name look near.
    const stem = (name: string) => name.slice('PAYCONNECT_'.length);
    const near = didYouMean(
      unknown,
      closest(stem(unknown), KNOWN_VARIABLES.map(stem)).map((s) => `PAYCONNECT_${s}`),
    );
    throw new ToolkitError(
      'PCC_CONFIG_INVALID',
      `unknown environment variable ${unknown}${near}`,
      `rename or unset ${unknown}; the variables are PAYCONNECT_ and a flag in upper snake case (run --help lists each flag's variable)`,
    );
  }
}

function readVariable(env: NodeJS.ProcessEnv, name: string, isBoolean: boolean, key: OptionKey): Candidate | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const candidate: Candidate = { value: raw, source: 'env', where: `environment variable ${name}` };
  if (!isBoolean) return candidate;
  const word = raw.trim().toLowerCase();
  if (TRUE.includes(word)) return { ...candidate, value: true };
  if (FALSE.includes(word)) return { ...candidate, value: false };
  throw invalidValue(
    key,
    candidate,
    'expected 1, true, 0 or false',
    `set ${name}=1 (or true) to turn it on, ${name}=0 (or false) to turn it off`,
  );
}
