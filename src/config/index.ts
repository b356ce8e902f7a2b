/** Configuration of `run`: defineConfig for config files, resolveConfig for the CLI and the API. */
export { DEFAULTS } from './defaults.ts';
export { defineConfig } from './define-config.ts';
export { parseDuration } from './duration.ts';
export { RUN_FLAGS, envVarOf, type RunFlag, type RunFlagGroup } from './flags.ts';
export { formatRunHelp } from './help.ts';
export { NETWORK_PARSE_OPTIONS, networkSettingsFrom, networkUsage } from './network-flags.ts';
export { resolveConfig } from './resolve.ts';
export {
  PROFILE_NAMES,
  RUNS_PRESETS,
  SUITE_NAMES,
  TERMINAL_MODES,
  type ConfigSource,
  type Duration,
  type OptionKey,
  type ProfileName,
  type ResolveConfigInput,
  type ResolvedConfig,
  type ResolvedTarget,
  type RunsPreset,
  type SimUserConfig,
  type SuiteName,
  type TerminalMode,
  type UserConfig,
} from './types.ts';
export { OPTION_SCHEMAS, configJsonSchema } from './json-schema.ts';
