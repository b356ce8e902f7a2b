/**
 * The JSON Schema of a config file's object (what `defineConfig` takes), for editors and for
 * validating a config made by other tools. One entry per option of the flag table: the type demands
 * one for every option, so the schema cannot fall behind the options. `npm run generate` writes it to
 * contracts/payconnect.config.schema.json. The resolver stays the judge of values (a URL's shape, a
 * duration's range); the schema says what each key holds.
 */
import { COVERAGE_REQUIRABLE, PROFILE_NAMES, SUITE_NAMES, TERMINAL_MODES, type OptionKey } from './types.ts';
import { DEFAULTS } from './defaults.ts';
import { RUN_FLAGS } from './flags.ts';
import { SIM_SETTINGS as S } from './sim-settings.ts';

type Schema = Record<string, unknown>;

const duration: Schema = { oneOf: [{ type: 'integer', minimum: 0, description: 'milliseconds' }, { type: 'string', pattern: '^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h)?\\s*$' }] };
const strings = (items: Schema = { type: 'string' }): Schema => ({ type: 'array', items });

/** The schema of each option (sections dotted). */
export const OPTION_SCHEMAS: Readonly<Record<Exclude<OptionKey, 'config'>, Schema>> = {
  target: { type: 'string', description: 'sim, pact, or the base URL of a service (http or https; with the path a gateway mounts the API under, if any)' },
  integratorId: { type: 'string', minLength: 1 },
  otp: strings({ type: 'string', pattern: '^\\d{6}$' }),
  vault: { type: 'string' },
  profile: { enum: [...PROFILE_NAMES] },
  terminal: { enum: [...TERMINAL_MODES] },
  webhookListen: { type: 'string', pattern: '^(\\[[^\\]]*\\]|[^:\\[\\]]*):\\d{1,5}$' },
  webhookPublicUrl: { type: 'string', pattern: '^https?://' },
  webhookTlsCert: { type: 'string' },
  webhookTlsKey: { type: 'string' },
  deadline: duration,
  maxDuration: duration,
  maxResponseTime: duration,
  settle: duration,
  seed: { type: 'integer', minimum: -(2 ** 31), maximum: 2 ** 32 - 1 },
  suites: strings({ enum: [...SUITE_NAMES] }),
  grep: { type: 'string', description: 'a regular expression scenario names must match' },
  runs: { oneOf: [{ enum: Object.keys(DEFAULTS.runsPresets) }, { type: 'integer', minimum: 1 }] },
  terminals: { type: 'integer', minimum: 1, maximum: 32 },
  labels: { oneOf: [
    { type: 'object', propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' }, additionalProperties: { type: 'string', minLength: 1, maxLength: 200 } },
    strings({ type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}=.+$' }),
  ] },
  resume: { type: 'boolean' },
  baseline: { type: 'string' },
  compareTo: { type: 'string' },
  signKey: { type: 'string' },
  confirm: { type: 'integer', minimum: 0, maximum: 20 },
  shard: { type: 'string', pattern: '^\\s*\\d{1,4}\\s*/\\s*\\d{1,4}\\s*$' },
  strict: { type: 'boolean' },
  quiet: { type: 'boolean' },
  allowProduction: { type: 'boolean' },
  'checks.disable': strings(),
  'coverage.require': strings({ enum: [...COVERAGE_REQUIRABLE] }),
  'coverage.exclude': {
    type: 'array',
    description: 'Coverage items the gate does not require, each with why (named as the reports name them; * matches any text)',
    items: { type: 'object', additionalProperties: false, required: ['item', 'reason'], properties: { item: { type: 'string', minLength: 1 }, reason: { type: 'string', minLength: 1 } } },
  },
  maxAmount: { type: 'integer', minimum: 1 },
  reports: { type: 'string' },
  html: { type: 'boolean' },
  // The simulator's settings: the schema of each row's kind, whose range the simulator and `sim` share.
  [S.faults.runKey]: S.faults.kind.schema,
  [S.faultRate.runKey]: S.faultRate.kind.schema,
  [S.stepDelayMs.runKey]: S.stepDelayMs.kind.schema,
  [S.deadlineMs.runKey]: S.deadlineMs.kind.schema,
  [S.terminal.runKey]: S.terminal.kind.schema,
  [S.liberal.runKey]: S.liberal.kind.schema,
  'tls.caFile': { type: 'string' },
  'tls.clientCert': { type: 'string' },
  'tls.clientKey': { type: 'string' },
  proxy: { type: 'string', pattern: '^(https?|socks5?)://' },
};

/** The schema document. */
export function configJsonSchema(): Schema {
  const top: Record<string, Schema> = {};
  const sections: Record<string, Record<string, Schema>> = {};
  for (const flag of RUN_FLAGS) {
    if (flag.key === 'config') continue;
    const schema = { ...OPTION_SCHEMAS[flag.key], ...(OPTION_SCHEMAS[flag.key].description ? {} : { description: flag.description }) };
    const [section, key] = flag.key.includes('.') ? flag.key.split('.') as [string, string] : [undefined, flag.key];
    if (section) (sections[section] ??= {})[key] = schema;
    else top[key] = schema;
  }
  for (const [name, properties] of Object.entries(sections)) top[name] = { type: 'object', additionalProperties: false, properties };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://payconnect-conformance/payconnect.config.schema.json',
    title: 'payconnect-conformance config file (what defineConfig takes)',
    type: 'object',
    additionalProperties: false,
    properties: top,
  };
}
