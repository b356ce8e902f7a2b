/**
 * The JSON Schema of a config file's object (what `defineConfig` takes), for editors and for
 * validating a config made by other tools. One entry per option of the flag table: the schema of the
 * row's value, beside the parser the resolver uses, so neither the options nor their ranges can drift
 * apart. `npm run generate` writes it to contracts/payconnect.config.schema.json. The resolver stays
 * the judge of what a schema cannot say (a URL's shape, a regular expression).
 */
import type { OptionKey } from './types.ts';
import { RUN_FLAGS } from './flags.ts';

type Schema = Record<string, unknown>;

/** The schema of each option (sections dotted): its row's, where its range is written once. */
export const OPTION_SCHEMAS: Readonly<Record<Exclude<OptionKey, 'config'>, Schema>> = Object.fromEntries(
  RUN_FLAGS.filter((flag) => flag.key !== 'config').map((flag) => [flag.key, flag.value.schema]),
) as Record<Exclude<OptionKey, 'config'>, Schema>;

/** The schema document. */
export function configJsonSchema(): Schema {
  const top: Record<string, Schema> = {};
  const sections: Record<string, Record<string, Schema>> = {};
  for (const flag of RUN_FLAGS) {
    if (flag.key === 'config') continue;
    const schema = { ...OPTION_SCHEMAS[flag.key], ...(OPTION_SCHEMAS[flag.key].description ? {} : { description: flag.description }) };
    const [section, key] = flag.key.includes('.') ? (flag.key.split('.') as [string, string]) : [undefined, flag.key];
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
