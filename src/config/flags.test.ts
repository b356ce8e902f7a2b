import { describe, expect, it } from 'vitest';
import type { ToolkitError } from '../core/errors.ts';
import { DEFAULTS } from './defaults.ts';
import { envVarOf, parseRunFlags, RUN_FLAGS } from './flags.ts';
import { formatRunHelp } from './help.ts';
import { SUITE_NAMES } from './types.ts';

function usageError(argv: string[]): ToolkitError {
  try {
    parseRunFlags(argv);
  } catch (e) {
    return e as ToolkitError;
  }
  throw new Error(`expected ${argv.join(' ')} to be rejected`);
}

describe('parseRunFlags', () => {
  it('returns one flag candidate per flag given, saying which flag', () => {
    const flags = parseRunFlags(['--target', 'pact', '--deadline=3s', '--strict']);
    expect(flags.target).toEqual({ value: 'pact', source: 'flag', where: 'flag --target' });
    expect(flags.deadline?.value).toBe('3s');
    expect(flags.strict?.value).toBe(true);
    expect(flags.seed).toBeUndefined();
  });

  it('collects repeatable flags in order', () => {
    const flags = parseRunFlags(['--otp', '111111', '--suite', 'payment', '--otp', '222222', '--sim-fault', 'a', '--sim-fault', 'b']);
    expect(flags.otp?.value).toEqual(['111111', '222222']);
    expect(flags.suites?.value).toEqual(['payment']);
    expect(flags['sim.faults']?.value).toEqual(['a', 'b']);
  });

  it('reads --no-html as html false, and names it so', () => {
    expect(parseRunFlags(['--no-html']).html).toEqual({ value: false, source: 'flag', where: 'flag --no-html' });
    expect(parseRunFlags(['--no-strict']).strict?.value).toBe(false);
  });

  it('rejects an unknown flag, naming it and the close valid ones', () => {
    const error = usageError(['--target', 'sim', '--tagret', 'x']);
    expect(error.code).toBe('PCC_USAGE');
    expect(error.message).toBe('unknown flag --tagret; did you mean --target?');
    expect(error.hint).toContain('--help');
    expect(usageError(['--sim']).message).toMatch(/--sim-fault.*--sim-deadline.*--sim-step-delay|--sim-fault/);
    expect(usageError(['--suites', 'x']).message).toContain('did you mean --suite');
    expect(usageError(['--zzzzzzzzzz']).message).toBe('unknown flag --zzzzzzzzzz');
  });

  it('rejects a missing value, a value given to a boolean, and positional arguments', () => {
    expect(usageError(['--target']).code).toBe('PCC_USAGE');
    expect(usageError(['--target']).message).toContain('--target');
    expect(usageError(['--strict=yes']).message).toContain('--strict');
    const positional = usageError(['--target', 'sim', 'payment']);
    expect(positional.code).toBe('PCC_USAGE');
    expect(positional.message).toContain('"payment"');
  });
});

describe('RUN_FLAGS', () => {
  it('has unique names and options, and PAYCONNECT_ upper-snake environment names', () => {
    expect(new Set(RUN_FLAGS.map((f) => f.name)).size).toBe(RUN_FLAGS.length);
    expect(new Set(RUN_FLAGS.map((f) => f.key)).size).toBe(RUN_FLAGS.length);
    expect(envVarOf({ name: 'integrator-id' })).toBe('PAYCONNECT_INTEGRATOR_ID');
    expect(envVarOf({ name: 'sim-fault' })).toBe('PAYCONNECT_SIM_FAULT');
  });
});

describe('formatRunHelp', () => {
  const help = formatRunHelp();

  it('lists every flag with its environment variable', () => {
    for (const flag of RUN_FLAGS) {
      expect(help).toContain(flag.negated ? `--no-${flag.name}` : `--${flag.name}`);
      expect(help).toContain(envVarOf(flag));
    }
  });

  it('shows the defaults and the suite names', () => {
    expect(help).toContain(`default: ${DEFAULTS.vault}`);
    expect(help).toContain('default: 10s with sim');
    for (const suite of SUITE_NAMES) expect(help).toContain(suite);
    expect(help.replace(/\s+/g, ' ')).toContain('Precedence: flag > environment > config file > default.');
  });

  it('keeps lines within 100 columns', () => {
    for (const line of help.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });
});
