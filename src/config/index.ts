/** Configuration of `run`: defineConfig for config files, resolveConfig for the CLI and the API. */
export { DEFAULTS } from './defaults.ts';
export { defineConfig } from './define-config.ts';
export { formatDuration, parseDuration } from './duration.ts';
export { InvalidValue, choice, duration, durationWithin, integer, listen, port, probability, type Parser } from './parsers.ts';
export {
  NETWORK_FLAGS,
  REPORT_FLAGS,
  RUN_COMMAND,
  RUN_FLAGS,
  TARGET_FLAGS,
  WEBHOOK_FLAGS,
  envVarOf,
  runFlagsNamed,
  type RunFlag,
  type RunFlagGroup,
} from './flags.ts';
export {
  HELP_FLAG,
  argvOf,
  type CommandLine,
  type CommandSpec,
  type FlagRow,
  type FlagSection,
  type FlagValues,
  flagValue,
  formatCommandHelp,
  parseCommandLine,
  spellingsOf,
  wrap,
} from './command-line.ts';
export { formatRunHelp } from './help.ts';
export { networkSettingsFrom } from './network-flags.ts';
export { resolveConfig } from './resolve.ts';
export { KEEP_ALIVE_MAX_MS, SIM_SETTINGS, holdsTwoSteps, simulatorSeedOf, type SimSetting, type SimSettingName } from './sim-settings.ts';
export { booleanKind, choiceKind, durationKind, integerKind, probabilityKind, type JsonSchema, type ValueKind } from './value-kinds.ts';
export { shapingOptions } from './shaping-options.ts';
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
