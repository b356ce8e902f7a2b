/**
 * Options from the environment: `PAYCONNECT_` + the flag in upper snake case. Lists are
 * comma-separated, booleans are 1, true, 0 or false, and an empty variable counts as unset (CI
 * systems often define a variable with no value).
 */
import { ToolkitError } from '../core/errors.ts';
import { invalidValue, type Candidate, type Candidates } from './candidate.ts';
import { envVarOf, RUN_FLAGS } from './flags.ts';
import type { OptionKey } from './types.ts';

const TRUE = ['1', 'true'];
const FALSE = ['0', 'false'];

/** The signing key's variable as the documentation names it, beside PAYCONNECT_SIGN_KEY. */
const SIGNING_KEY_FILE = 'PAYCONNECT_SIGNING_KEY_FILE';

/** `PAYCONNECT_NO_HTML=1` reads more naturally than `PAYCONNECT_HTML=0`, so both work. */
const NO_HTML = 'PAYCONNECT_NO_HTML';

/**
 * Reads every option the environment sets.
 *
 * @throws ToolkitError PCC_CONFIG_INVALID for a boolean that is not 1, true, 0 or false, or for
 *   PAYCONNECT_HTML and PAYCONNECT_NO_HTML saying opposite things
 */
export function readEnv(env: NodeJS.ProcessEnv): Candidates {
  const out: Candidates = {};
  for (const flag of RUN_FLAGS) {
    const name = envVarOf(flag);
    const candidate = readVariable(env, name, flag.type === 'boolean', flag.key);
    if (candidate) out[flag.key] = candidate;
  }
  const signKey = readVariable(env, SIGNING_KEY_FILE, false, 'signKey');
  if (signKey) {
    if (out.signKey && out.signKey.value !== signKey.value) {
      throw new ToolkitError('PCC_CONFIG_INVALID', `invalid signKey from environment variables ${SIGNING_KEY_FILE} and PAYCONNECT_SIGN_KEY: they name different files`, `set only one of ${SIGNING_KEY_FILE} and PAYCONNECT_SIGN_KEY`);
    }
    out.signKey ??= signKey;
  }
  const noHtml = readVariable(env, NO_HTML, true, 'html');
  if (noHtml) {
    const html: Candidate = { ...noHtml, value: !noHtml.value };
    if (out.html && out.html.value !== html.value) {
      throw new ToolkitError('PCC_CONFIG_INVALID', `invalid html from environment variables ${NO_HTML} and PAYCONNECT_HTML: they contradict each other`,
        `set only one of ${NO_HTML} and PAYCONNECT_HTML`);
    }
    out.html ??= html;
  }
  return out;
}

function readVariable(env: NodeJS.ProcessEnv, name: string, isBoolean: boolean, key: OptionKey): Candidate | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const candidate: Candidate = { value: raw, source: 'env', where: `environment variable ${name}` };
  if (!isBoolean) return candidate;
  const word = raw.trim().toLowerCase();
  if (TRUE.includes(word)) return { ...candidate, value: true };
  if (FALSE.includes(word)) return { ...candidate, value: false };
  throw invalidValue(key, candidate, 'expected 1, true, 0 or false', `set ${name}=1 (or true) to turn it on, ${name}=0 (or false) to turn it off`);
}
