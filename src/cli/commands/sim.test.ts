/** The `sim` command: startup output, request log, clean stop, usage errors. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { simCommand } from './sim.ts';
import { Http, P, sleep } from '../../simulator/testkit.ts';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s) } };
}

async function until(pred: () => boolean, timeoutMs = 2000): Promise<void> {
  for (let i = 0; i < timeoutMs / 10 && !pred(); i++) await sleep(10);
  if (!pred()) throw new Error('condition not reached');
}

/** `sim` as a separate process (stdin a pipe, or none), once it is ready. */
async function simProcess(args: string[], stdin: 'pipe' | 'ignore' = 'pipe') {
  // The bin runs src through tsx unless a matching build exists, as a user would start it.
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('../../../bin/payconnect-conformance.js', import.meta.url)), 'sim', '--otps', '0', ...args],
    {
      stdio: [stdin, 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  await until(() => out.includes('Ctrl+C to stop'), 15_000);
  return { child, stdin: child.stdin!, output: () => out, exited };
}

describe('simCommand', () => {
  it('prints the URL, integrator id and N fresh OTPs, logs requests, and stops on abort with 0', async () => {
    const o = io();
    const ac = new AbortController();
    const running = simCommand(
      ['--port', '0', '--otps', '3', '--seed', '5', '--step-delay', '10', '--deadline', '200', '--fault', 'slow'],
      o.io,
      { signal: ac.signal },
    );
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
    const pair = await http.call('POST', P.pair, {
      headers: { 'x-pay-connect-integrator-id': 'sim-integrator' },
      body: { name: 'cli', otp: otps[0] },
    });
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
    const { child, output, exited } = await simProcess([], 'ignore');
    expect(output()).not.toContain('one-time passwords');
    child.kill(signal);
    expect(await exited).toBe(0);
    expect(output()).toContain('simulator stopped');
  });

  it.each([
    [['--bogus'], /unknown flag --bogus/],
    [['--prot', '1'], /unknown flag --prot; did you mean --port\?/],
    [['--port', 'abc'], /invalid --port "abc": not an integer\n  fix: give a port number from 0 to 65535/],
    [['--port', '70000'], /--port/],
    [['--step-delay', '5000'], /invalid --step-delay "5000": must be from 0ms to 1s/],
    [['--step-delay', '2 s'], /--step-delay/],
    [['--deadline', '20000'], /--deadline/],
    [['--step-delay', '100', '--deadline', '150'], /--deadline is 150ms\n  fix: make it larger than two step delays/],
    [['--webhook-retry-scale', '0'], /--webhook-retry-scale [^]*above 0/],
    [['--webhook-retry-scale', 'fast'], /--webhook-retry-scale/],
    [['--seed', '-1'], /--seed|-1/],
    [['--fault', 'nope'], /--fault "nope" is not a fault switch/],
    [
      ['--fault', 'slow', '--fault-rate', '0'],
      /invalid --fault-rate "0": must be above 0 and at most 1\n  fix: give a probability above 0 and at most 1/,
    ],
    [['--fault', 'slow', '--fault-rate', '1.5'], /--fault-rate "1.5"/],
    [['--fault', 'slow', '--fault-rate', 'often'], /--fault-rate "often"/],
    [['--fault-rate', '0.3'], /--fault-rate is given without --fault\n  fix: add the fault switches/],
    [['--otps', '1000'], /--otps/],
    [['--port'], /--port/],
    [['extra'], /unexpected argument/],
    [['--terminal', 'x'], /invalid --terminal "x": not one of auto, manual\n  fix: use one of: auto, manual\n$/],
    [['--terminal'], /--terminal/],
    [
      ['--terminal', 'manual', '--manual-deadline', '999'],
      /invalid --manual-deadline "999": must be from 1s to 60m\n  fix: give a duration from 1s to 60m/,
    ],
    [['--terminal', 'manual', '--manual-deadline', '3600001'], /--manual-deadline/],
    [
      ['--terminal', 'manual', '--step-delay', '600', '--manual-deadline', '1200'],
      /--manual-deadline is 1200ms\n  fix: make it larger than two step delays \(1200 ms\)/,
    ],
    [['--manual-deadline', '5000'], /--manual-deadline is given without --terminal manual\n  fix: add --terminal manual/],
    [['--tls-dir', '/tmp/x'], /--tls-dir is given without --tls\n  fix: add --tls, or drop --tls-dir/],
    [['--tls', '--tls-dir', ' '], /--tls-dir is empty/],
    [['--keep-alive', 'sometimes'], /invalid --keep-alive "sometimes"/],
  ])('refuses %j with one clear message and exit code 2', async (argv, message) => {
    const o = io();
    expect(await simCommand(argv, o.io)).toBe(2);
    expect(o.err).toHaveLength(1);
    expect(o.err[0]).toMatch(message);
    expect(o.err[0]).toMatch(/^PCC_USAGE: .*\n  fix: /);
    expect(o.out).toHaveLength(0);
  });

  it('--liberal: says so, and pairs with an empty webhook_url, which the default refuses', async () => {
    const o = io();
    const ac = new AbortController();
    const running = simCommand(['--port', '0', '--otps', '2', '--liberal'], o.io, { signal: ac.signal });
    await until(() => o.out.join('').includes('press Ctrl+C'));
    const text = o.out.join('');
    expect(text).toMatch(/^liberal: on \(\d+ liberties/m);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1] as string;
    const otp = [...text.matchAll(/^ {2}(\d{6})$/gm)].map((m) => m[1] as string)[0];
    const http = new Http(url);
    const pair = await http.call('POST', P.pair, {
      headers: { 'x-pay-connect-integrator-id': 'acme' },
      body: { name: 'cli', otp, webhook_url: '' },
    });
    await http.close();
    expect(pair.status, pair.text).toBe(200);
    expect(pair.headers['server']).toBe('pay-connect-liberal/1.0');
    ac.abort();
    expect(await running).toBe(0);
  });

  it('prints usage for --help', async () => {
    const o = io();
    expect(await simCommand(['--help'], o.io)).toBe(0);
    const help = o.out.join('');
    expect(help).toMatch(/^Usage: payconnect-conformance sim /);
    for (const flag of [
      '--port',
      '--host',
      '--keep-alive',
      '--tls',
      '--tls-dir',
      '--step-delay',
      '--deadline',
      '--terminal auto|manual',
      '--manual-deadline',
      '--otps',
      '--seed',
      '--fault',
      '--fault-rate',
      '--webhook-retry-scale',
      '--record',
    ])
      expect(help).toContain(flag);
    expect(help).toMatch(/\/_sim\/terminals/);
  });

  it('--tls: serves https://localhost, prints the CA file and how to trust it, logs a client that does not trust it', async () => {
    const o = io();
    const ac = new AbortController();
    const running = simCommand(['--tls', '--otps', '1'], o.io, { signal: ac.signal });
    await until(() => o.out.join('').includes('press Ctrl+C'), 10_000);
    const text = o.out.join('');
    const url = /listening on (https:\/\/localhost:\d+)\n/.exec(text)?.[1] as string;
    expect(url).toBeDefined();
    const ca = /^ca: (\S+\/ca\.pem) {2}\(trust it: NODE_EXTRA_CA_CERTS=(\S+), or --ca-file (\S+)\)$/m.exec(text);
    expect(ca?.slice(2)).toEqual([ca?.[1], ca?.[1]]);
    const otp = /^ {2}(\d{6})$/m.exec(text)?.[1] as string;
    const trusting = new Http(url, undefined, readFileSync(ca![1]!, 'utf8'));
    expect((await paired(trusting, otp)).tid).toMatch(/./);
    await trusting.close();
    const other = new Http(url);
    await expect(other.call('GET', P.config)).rejects.toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    await other.close();
    await until(() => o.out.some((l) => l.startsWith('TLS: ')));
    ac.abort();
    expect(await running).toBe(0);
    expect(existsSync(ca![1]!)).toBe(false);
  });

  it("answers 2, in the form of every command's errors, when the port is taken", async () => {
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

/** A paired, logged-in caller of a `sim` started by the command (its OTPs come from the banner). */
async function paired(http: Http, otp: string) {
  const pair = await http.call('POST', P.pair, {
    headers: { 'x-pay-connect-integrator-id': 'sim-integrator' },
    body: { name: 'manual', otp },
  });
  expect(pair.status).toBe(200);
  const token = await http.call('POST', P.token, {
    body: { grant_type: 'client_credentials', client_id: pair.json.client_id, client_secret: pair.json.client_secret },
  });
  const headers = { 'x-pay-connect-integrator-id': 'sim-integrator', authorization: `Bearer ${token.json.access_token}` };
  return {
    tid: pair.json.terminal_id as string,
    post: (path: string, body: unknown) => http.call('POST', path, { headers, body }),
    get: (path: string) => http.call('GET', path, { headers }),
  };
}

type Paired = Awaited<ReturnType<typeof paired>>;

async function statusOf(c: Paired, id: string, want: string): Promise<Record<string, unknown>> {
  let last: Record<string, unknown> = {};
  for (let i = 0; i < 300 && last.status !== want; i++) {
    last = (await c.get(P.status(id))).json;
    if (last.status !== want) await sleep(10);
  }
  expect(last.status).toBe(want);
  return last;
}

/** A stream that looks like a TTY to the command, recording raw-mode switches. */
function fakeTty() {
  const modes: boolean[] = [];
  const s = Object.assign(new PassThrough(), { isTTY: true, setRawMode: (m: boolean) => void modes.push(m) });
  return { s, modes };
}

const MANUAL = ['--seed', '5', '--step-delay', '10', '--terminal', 'manual'];

describe('simCommand --terminal manual', () => {
  it('prints the manual banner and a line per waiting transaction, acts on letters read as lines, and survives EOF', async () => {
    const o = io();
    const stdin = new PassThrough();
    const ac = new AbortController();
    const running = simCommand([...MANUAL, '--otps', '1', '--manual-deadline', '5000'], { ...o.io, stdin }, { signal: ac.signal });
    await until(() => o.out.join('').includes('Ctrl+C to stop'));
    const text = o.out.join('');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1] as string;
    expect(text).toContain(
      'terminal: manual (each payment, preauthorization and refund waits for an operator action; without one it expires after 5000 ms)',
    );
    expect(text).toContain(
      'keys (stdin is not a terminal: type them one per line): p present card, d decline, f fail, ' +
        'r remove card, t timeout, i add tip (1.00), l list waiting, q stop',
    );
    expect(text).toContain(
      `curl -X POST ${url}/_sim/terminals/<terminal_id>/actions -H 'content-type: application/json' -d '{"action":"present-card"}'`,
    );
    expect(text).toContain(`curl ${url}/_sim/terminals`);
    expect(text).toContain('press q or Ctrl+C to stop');
    const otp = /^ {2}(\d{6})$/m.exec(text)?.[1] as string;

    const http = new Http(url);
    const c = await paired(http, otp);
    const lines = () => o.out.join('').split('\n');
    const next = async (re: RegExp) => {
      await until(() => lines().some((l) => re.test(l)));
      return lines().find((l) => re.test(l)) as string;
    };
    const id = (await c.post(P.generate, { amount: 1000 })).json.transaction_id as string;
    await next(
      new RegExp(
        `^terminal ${c.tid}: transaction ${id} \\(payment, 10\\.00\\) waits for the card: p present, d decline, f fail, r remove, t timeout, i tip$`,
      ),
    );
    stdin.write('l\n');
    await next(
      new RegExp(
        `^waiting: terminal ${c.tid} transaction ${id} \\(payment, 10\\.00, (INITIATED|IN_PROGRESS), tip 0\\.00, \\d+\\.\\d s\\)$`,
      ),
    );
    stdin.write('i\n');
    await next(new RegExp(`^terminal ${c.tid}: add-tip 1\\.00 on transaction ${id}, now (INITIATED|IN_PROGRESS)$`));
    stdin.write(' P \n'); // trimmed, either case
    await next(new RegExp(`^terminal ${c.tid}: present-card on transaction ${id}, now IN_PROGRESS$`));
    expect(await statusOf(c, id, 'SUCCESS')).toMatchObject({ tip_amount: 100, total_amount: 1100 });

    const before = lines().length;
    stdin.write('d\nl\nx\n\n');
    await until(() => lines().length >= before + 3);
    expect(lines().slice(before - 1, before + 2)).toEqual([
      'nothing waits for an action',
      'nothing waits for an action',
      'unknown key "x": p present card, d decline, f fail, r remove card, t timeout, i add tip (1.00), l list waiting, q stop',
    ]);

    stdin.emit('error', new Error('read error')); // neither a read error
    stdin.end(); // nor EOF stops the simulator: it keeps serving over HTTP
    await sleep(50);
    expect((await http.call('GET', '/_sim/terminals')).json.mode).toBe('manual');
    let done = false;
    void running.then(() => (done = true));
    await sleep(10);
    expect(done).toBe(false);
    await http.close();
    ac.abort();
    expect(await running).toBe(0);
    expect(stdin.listenerCount('data')).toBe(0);
  });

  it('stops on a "q" line with exit code 0', async () => {
    const o = io();
    const stdin = new PassThrough();
    const running = simCommand([...MANUAL, '--otps', '0'], { ...o.io, stdin });
    await until(() => o.out.join('').includes('Ctrl+C to stop'));
    stdin.write('q\n');
    expect(await running).toBe(0);
    expect(o.out.join('')).toContain('simulator stopped');
  });

  it('on a TTY: raw single keys act on the terminal that has waited longest, Ctrl+C stops, the mode is restored', async () => {
    const o = io();
    const { s, modes } = fakeTty();
    const running = simCommand([...MANUAL, '--otps', '2'], { ...o.io, stdin: s });
    await until(() => o.out.join('').includes('Ctrl+C to stop'));
    const text = o.out.join('');
    expect(text).toContain('keys: p present card');
    expect(modes).toEqual([true]);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1] as string;
    const [otpA, otpB] = [...text.matchAll(/^ {2}(\d{6})$/gm)].map((m) => m[1] as string);
    const http = new Http(url);
    const a = await paired(http, otpA!);
    const b = await paired(http, otpB!);
    const idA = (await a.post(P.generate, { amount: 1000 })).json.transaction_id as string;
    await sleep(20);
    const idB = (await b.post(P.generate, { amount: 2000 })).json.transaction_id as string;
    const count = () =>
      o.out
        .join('')
        .split('\n')
        .filter((l) => / on transaction /.test(l)).length;
    s.write('d'); // no newline: a raw key acts at once, on A (the older)
    await until(() => count() === 1);
    s.write('\x1b[A'); // an arrow key is no key
    s.write('p');
    await until(() => count() === 2);
    const acted = o.out
      .join('')
      .split('\n')
      .filter((l) => / on transaction /.test(l));
    expect(acted[0]).toMatch(new RegExp(`^terminal ${a.tid}: decline on transaction ${idA}, now IN_PROGRESS$`));
    expect(acted[1]).toMatch(new RegExp(`^terminal ${b.tid}: present-card on transaction ${idB}, now IN_PROGRESS$`));
    expect(o.out.join('')).not.toContain('unknown key');
    await statusOf(a, idA, 'DECLINED');
    await statusOf(b, idB, 'SUCCESS');
    await http.close();
    s.write('\u0003');
    expect(await running).toBe(0);
    expect(modes).toEqual([true, false]);
    expect(s.listenerCount('data')).toBe(0);
  });

  it('in auto mode reads nothing from stdin and prints no manual lines', async () => {
    const o = io();
    const stdin = new PassThrough();
    const ac = new AbortController();
    const running = simCommand(['--otps', '0'], { ...o.io, stdin }, { signal: ac.signal });
    await until(() => o.out.join('').includes('press Ctrl+C to stop'));
    expect(stdin.listenerCount('data')).toBe(0);
    expect(o.out.join('')).not.toMatch(/terminal: manual|_sim|keys/);
    stdin.write('q\n');
    await sleep(30);
    ac.abort();
    expect(await running).toBe(0);
  });

  it('reads process.stdin by default: a "q" line stops it (exit 0) with the pipe still open', async () => {
    const { child, stdin, output, exited } = await simProcess(['--terminal', 'manual']);
    stdin.write('l\n');
    await until(() => output().includes('nothing waits for an action'));
    stdin.write('q\n'); // the process must let go of stdin to exit
    const code = await Promise.race([exited, sleep(5000).then(() => 'hung' as const)]);
    if (code === 'hung') child.kill('SIGKILL');
    expect(code).toBe(0);
    expect(output()).toContain('simulator stopped');
  });

  it("--pid-file: the file names the simulator's own process, which SIGTERM to that id stops; the file goes with it", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pcc-sim-pid-')), 'sim.pid');
    const { child, output, exited } = await simProcess(['--pid-file', file], 'ignore');
    expect(readFileSync(file, 'utf8')).toBe(`${child.pid}\n`);
    process.kill(Number(readFileSync(file, 'utf8')), 'SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).toContain('simulator stopped');
    expect(existsSync(file)).toBe(false);
  });

  it('--pid-file in a folder that is not there: exit 2 naming it, nothing left listening', async () => {
    const o = io();
    expect(await simCommand(['--port', '0', '--otps', '0', '--pid-file', '/nonexistent-dir/sim.pid'], o.io)).toBe(2);
    expect(o.err.join('')).toMatch(/^PCC_USAGE: --pid-file \/nonexistent-dir\/sim\.pid cannot be written \(ENOENT\)/);
  });

  it('reads process.stdin by default: EOF on the pipe does not stop it, SIGTERM does (exit 0)', async () => {
    const { child, stdin, output, exited } = await simProcess(['--terminal', 'manual']);
    stdin.end();
    let gone = false;
    void exited.then(() => (gone = true));
    await sleep(200);
    expect(gone).toBe(false);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).toContain('simulator stopped');
  });
});
