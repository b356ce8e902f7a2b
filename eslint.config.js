// ESLint: typescript-eslint's recommended rules plus the dependency rules of ARCHITECTURE.md.
import tseslint from 'typescript-eslint';

/** Layers of src/ that a folder must not import, per ARCHITECTURE.md (A -> B means A may import B). */
const forbidden = {
  core: ['config', 'profile', 'client', 'checks', 'convergence', 'webhooks', 'vault', 'targets', 'terminal', 'simulator', 'report', 'cli', 'runtime', 'engine', 'pairing', 'transport'],
  // The simulator is judged by the harness: it must share no logic with it.
  simulator: ['checks', 'client', 'convergence', 'profile', 'webhooks', 'vault', 'targets', 'terminal', 'report', 'cli', 'config', 'runtime', 'engine', 'pairing', 'transport'],
  client: ['checks', 'convergence', 'webhooks', 'vault', 'targets', 'terminal', 'simulator', 'report', 'cli', 'runtime', 'engine', 'pairing'],
  webhooks: ['checks', 'client', 'convergence', 'vault', 'targets', 'terminal', 'simulator', 'report', 'cli', 'runtime', 'engine', 'pairing', 'transport'],
  vault: ['checks', 'client', 'convergence', 'webhooks', 'targets', 'terminal', 'simulator', 'report', 'cli', 'runtime', 'engine', 'pairing', 'transport'],
  convergence: ['checks', 'client', 'vault', 'targets', 'terminal', 'simulator', 'report', 'cli', 'runtime', 'engine', 'pairing', 'transport'],
  checks: ['client', 'convergence', 'webhooks', 'vault', 'targets', 'terminal', 'simulator', 'report', 'cli', 'runtime', 'engine', 'pairing', 'transport'],
  profile: ['checks', 'client', 'convergence', 'webhooks', 'vault', 'targets', 'terminal', 'simulator', 'report', 'cli', 'runtime', 'engine', 'pairing', 'transport'],
  // Pairing by OTP and keeping the credentials: the harness, the Pact provider states and `pair` share it.
  pairing: ['checks', 'convergence', 'webhooks', 'targets', 'terminal', 'simulator', 'report', 'cli', 'runtime', 'pact', 'engine', 'config'],
  // Opening a target starts the simulator (wiring, not its logic); only cli and engine open targets.
  targets: ['checks', 'report', 'cli', 'runtime', 'engine'],
  terminal: ['checks', 'simulator', 'report', 'cli', 'engine'],
  // The runtime records the transcript through transcript/recorder.ts (core only), never its re-judging.
  runtime: ['simulator', 'report', 'cli', 'pact', 'targets', 'engine', 'transcript/index.ts', 'transcript/rejudge.ts', 'transcript/assemble.ts'],
  pact: ['simulator', 'report', 'cli', 'runtime', 'checks', 'targets', 'engine'],
  report: ['checks', 'client', 'convergence', 'webhooks', 'vault', 'targets', 'terminal', 'simulator', 'cli', 'runtime', 'engine', 'pairing', 'transport'],
  // Outgoing connections (CA, client certificate, proxy): used by client, targets and the commands; uses core only.
  transport: ['config', 'profile', 'client', 'checks', 'convergence', 'webhooks', 'vault', 'targets', 'terminal', 'simulator', 'report', 'cli', 'runtime', 'engine', 'pairing', 'pact', 'receiver-check', 'client-check'],
  // The transcript: the worker's recorder (core only: the runtime records through recorder.ts), the
  // engine's assembly and merge, and re-judging offline (checks, report, profile); never the network's layers.
  transcript: ['cli', 'engine', 'runtime', 'targets', 'simulator', 'client', 'convergence', 'webhooks', 'vault', 'terminal', 'pact', 'pairing', 'transport', 'config', 'receiver-check', 'client-check'],
  // The run's assembly (runConformance): used by cli and the public barrel only.
  engine: ['cli'],
  // Signed evidence: statements, envelopes, keys over the reports; the commands wire it.
  attest: ['cli', 'engine', 'runtime', 'targets', 'simulator', 'client', 'convergence', 'webhooks', 'vault', 'terminal', 'pact', 'pairing', 'transport', 'config', 'checks', 'transcript'],
  // check-receiver judges an integrator's endpoint: a command's assembly beside engine, never the simulator's logic.
  'receiver-check': ['simulator', 'cli', 'runtime', 'targets', 'terminal', 'pact', 'vault', 'pairing', 'client', 'convergence', 'checks', 'profile'],
  // certify-client runs the integrator's client against the simulator (its environment, not what it
  // judges) and judges the recording with rules of its own: never the harness's runtime or client.
  'client-check': ['cli', 'runtime', 'targets', 'terminal', 'pact', 'vault', 'pairing', 'client', 'convergence', 'receiver-check'],
};

function restrict(folder, layers) {
  return {
    files: [`src/${folder}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: layers.map((layer) => ({
            group: [`**/${layer}`, `**/${layer}/**`, `../${layer}/*`, `../../${layer}/*`],
            message: `src/${folder} must not import src/${layer} (see ARCHITECTURE.md)`,
          })),
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'src/generated/', 'coverage/', 'dist/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      // A timer assigned once, after the closure that clears it was created, is not a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  ...Object.entries(forbidden).map(([folder, layers]) => restrict(folder, layers)),
  {
    // suites/ and generators/ use the public API of src/ only (generated files and core vocabulary excepted).
    files: ['suites/**/*.ts', 'generators/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src/*/**', '!**/src/generated/**', '!**/src/core/**'], message: 'suites and generators import the public API (src/index.ts), generated files and core only' }] },
      ],
    },
  },
);
