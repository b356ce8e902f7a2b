/** The `sim` command: startup output, request log, clean stop, usage errors. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { simCommand } from './sim-command.ts';
import { Http, P, sleep } from './testkit.ts';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s) } };
}

async function until(pred: () => boolean, timeoutMs = 2000): Promise<void> {
  for (let i = 0; i < timeoutMs / 10 && !pred(); i++) await sleep(10);
  if (!pred()) throw new Error('condition not reached');
}

describe('simCommand', () => {
  it('prints the URL, integrator id and N fresh OTPs, logs requests, and stops on abort with 0', async () => {
    const o = io();
    const ac = new AbortController();
    const running = simCommand(['--port', '0', '--otps', '3', '--seed', '5', '--step-delay', '10', '--deadline', '200', '--fault', 'slow'], o.io, { signal: ac.signal });
    await until(() => o.out.join('').includes('press Ctrl+C'));
    const text = o.out.join('');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1] as string;
    expect(url).toBeDefined();
    expect(text).toContain('integrator id: sim-integrator');
    expect(text).toContain('faults: slow');
    const otps = [...text.matchAll(/^ {2}(\d{6})$/gm)].map((m) => m[1] as string);
    expect(otps).toHaveLength(3);
    expect(new Set(otps).size).toBe(3);

    const http = new Http(url);
    const pair = await http.call('POST', P.pair, { headers: { 'x-pay-connect-integrator-id': 'sim-integrator' }, body: { name: 'cli', otp: otps[0] } });
    expect(pair.status).toBe(200);
    await http.close();
    await until(() => o.out.some((l) => /^POST \/v1\/pay-connect\/pair\/ 200 \d+ms\n$/.test(l)));
    expect(o.out.join('')).not.toContain(pair.json.client_secret);

    ac.abort();
    expect(await running).toBe(0);
    expect(o.out.join('')).toContain('simulator stopped');
    await expect(fetch(`${url}/v1/pay-connect/config/`)).rejects.toThrow();
  });

  it.each([['SIGTERM'], ['SIGINT']] as const)('stops cleanly on a real %s with exit code 0', async (signal) => {
    // A child process, so the signal does not reach the test runner.
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('main.ts', import.meta.url)), '--otps', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await until(() => out.includes('press Ctrl+C'), 15_000);
    expect(out).not.toContain('one-time passwords');
    child.kill(signal);
    expect(await exited).toBe(0);
    expect(out).toContain('simulator stopped');
  });

  it.each([
    [['--bogus'], /unknown flag --bogus/],
    [['--port', 'abc'], /--port is "abc"\n  fix: give an integer from 0 to 65535/],
    [['--port', '70000'], /--port/],
    [['--step-delay', '5000'], /--step-delay [^]*0 to 1000/],
    [['--deadline', '20000'], /--deadline/],
    [['--step-delay', '100', '--deadline', '150'], /--deadline is 150\n  fix: make it larger than two step delays/],
    [['--webhook-retry-scale', '0'], /--webhook-retry-scale [^]*above 0/],
    [['--webhook-retry-scale', 'fast'], /--webhook-retry-scale/],
    [['--seed', '-1'], /--seed|-1/],
    [['--fault', 'nope'], /--fault "nope" is not a fault switch/],
    [['--otps', '1000'], /--otps/],
    [['--port'], /--port needs a value/],
    [['extra'], /unexpected argument/],
  ])('refuses %j with one clear message and exit code 2', async (argv, message) => {
    const o = io();
    expect(await simCommand(argv, o.io)).toBe(2);
    expect(o.err).toHaveLength(1);
    expect(o.err[0]).toMatch(message);
    expect(o.err[0]).toMatch(/^PCC_USAGE: .*\n  fix: /);
    expect(o.out).toHaveLength(0);
  });

  it('prints usage for --help', async () => {
    const o = io();
    expect(await simCommand(['--help'], o.io)).toBe(0);
    expect(o.out.join('')).toMatch(/usage: sim/);
  });

  it('answers 2, in the form of every command\'s errors, when the port is taken', async () => {
    const first = io();
    const ac = new AbortController();
    const running = simCommand(['--otps', '0'], first.io, { signal: ac.signal });
    await until(() => first.out.join('').includes('press Ctrl+C'));
    const port = /:(\d+)\n/.exec(first.out.join(''))?.[1] as string;
    const second = io();
    expect(await simCommand(['--port', port], second.io)).toBe(2);
    expect(second.err.join('')).toMatch(/^PCC_SIMULATOR: the simulator could not listen on .*\n  fix: /);
    ac.abort();
    expect(await running).toBe(0);
  });
});
