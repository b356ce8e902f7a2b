import type { UserConfig } from './types.ts';

/**
 * Types a config file: `export default defineConfig({ target: 'https://pay.example.com', ... })`.
 * Returns its argument unchanged; the values are validated by `resolveConfig`.
 */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}
