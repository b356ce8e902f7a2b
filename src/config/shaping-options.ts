/**
 * The options of a run's command line that shaped its tests, as a re-run repeats them (the final
 * table's re-run lines, a stateful counterexample's replay).
 */
import { RUN_FLAGS } from './flags.ts';

/**
 * Options of a run's command line that do not shape what a test does, left out of its re-run: what
 * picked the tests (the re-run picks one), the session, shards, confirmations, signing and reports.
 */
const NOT_SHAPING = new Set([
  'grep',
  'suite',
  'seed',
  'resume',
  'shard',
  'confirm',
  'sign-key',
  'reports',
  'html',
  'quiet',
  'label',
  'require-coverage',
  // A one-time password is spent: the re-run pairs from the vault, where the first run saved the pairing.
  'otp',
]);

/** A value as a log may show it: a URL's password (a proxy's, a target's) masked. */
function shown(value: string): string {
  try {
    const u = new URL(value);
    if (u.password === '') return value;
    u.password = 'REDACTED';
    return u.href;
  } catch {
    return value;
  }
}

/**
 * The options of `argv` (a run's command line, after `run`) that shaped its tests: every flag as
 * given, but those of {@link NOT_SHAPING}, each with its value.
 */
export function shapingOptions(argv: readonly string[]): string[] {
  const takesValue = new Set(RUN_FLAGS.filter((f) => f.type === 'string').map((f) => f.name));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) continue;
    const [flag, inline] = [a.slice(2).split('=')[0]!, a.includes('=')];
    const name = flag.startsWith('no-') && !takesValue.has(flag) ? flag.slice(3) : flag;
    const value = takesValue.has(flag) && !inline ? argv[++i] : undefined;
    if (NOT_SHAPING.has(name)) continue;
    out.push(inline ? `--${flag}=${shown(a.slice(a.indexOf('=') + 1))}` : a, ...(value !== undefined ? [shown(value)] : []));
  }
  return out;
}
