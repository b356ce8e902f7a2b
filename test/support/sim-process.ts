/**
 * The simulator as a user runs it for a URL target: `payconnect-conformance sim` in a process of its
 * own, read for its base URL and integrator id, stopped with SIGTERM (or killed, to play a service
 * that dies mid-run).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './run-cli.ts';

export interface SimProcess {
  url: string;
  integratorId: string;
  /** Everything the process printed so far. */
  output(): string;
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
}

/** Starts `sim` with `args` (e.g. `--step-delay 100 --deadline 2500 --fault F`) on a free loopback port. */
export function startSimProcess(args: string[]): Promise<SimProcess> {
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'bin', 'payconnect-conformance.js'), 'sim', '--otps', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, VITEST: undefined, VITEST_WORKER_ID: undefined, VITEST_POOL_ID: undefined, NODE_OPTIONS: undefined },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void end('SIGKILL');
      reject(new Error(`sim did not start within 20 s:\n${out}`));
    }, 20_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const integratorId = /integrator id: (\S+)/.exec(out)?.[1];
      if (url && integratorId) {
        clearTimeout(timer);
        resolve({ url, integratorId, output: () => out, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sim exited (${code}) before it was ready:\n${out}`));
    });
  });
}
