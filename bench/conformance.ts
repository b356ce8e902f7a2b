/**
 * What a user waits for and what it costs, measured as the user runs it (the command in a child
 * process, under /usr/bin/time for the largest resident set of any process of the run):
 * 1. `run` against the embedded simulator, HTML report included (what `npm run conformance` does);
 * 2. `run` against `sim --step-delay 100 --deadline 2500` started as a separate process, used as a
 *    sandbox URL.
 * For each: wall time, max RSS, the verdict and counts, requests per second over the run, and the size
 * of the reports folder it left (bytes, disk blocks, files; the target is under 10 MB); and, beside the
 * wall time, the run's terminal-time floor, read from its transcript: for every convergence, the time
 * until the terminal reached its final status (the first final status polling or a webhook saw), summed
 * and divided by the terminals in use; with what the waits cost past that moment (the settle window,
 * the webhook grace), summed the same way.
 * For a URL run also the split of the rest (bench/split.ts: requests, connection set-up, terminal
 * steps, waits past the final status, other waits, idle lanes, outside the tests), per terminal.
 * For every run the CPU by process (the run's, each vitest worker, the Allure generator), the share
 * of the cores' time it took and the cores' floor (bench/cpu-by-process.cjs).
 * Prints figures; asserts nothing (the machines are shared and noisy: compare medians of several).
 *
 *   npx tsx bench/conformance.ts [--repeat N] [--skip-url] [--skip-sim] [--delay-ms N] [--root DIR]
 *     [-- <extra run flags, e.g. --terminals 4>]
 *
 * --delay-ms N: the URL run goes through a proxy that holds every answer N ms (test/support/delaying-proxy.ts).
 * --root DIR: runs the CLI of another checkout (built), e.g. main's, to interleave before and after.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { type DirSize, dirSize } from '../test/support/dir-size.ts';
import { startDelayingProxy } from '../test/support/delaying-proxy.ts';
import { type Split, estimateConnectMs, splitLine, splitOf } from './split.ts';

const dashdash = process.argv.indexOf('--');
const own = dashdash < 0 ? process.argv.slice(2) : process.argv.slice(2, dashdash);
const extra = dashdash < 0 ? [] : process.argv.slice(dashdash + 1);
const { values } = parseArgs({
  args: own,
  options: {
    repeat: { type: 'string', default: '1' },
    'skip-url': { type: 'boolean' },
    'skip-sim': { type: 'boolean' },
    'delay-ms': { type: 'string', default: '0' },
    root: { type: 'string' },
  },
});
const repeat = Math.max(1, Number(values.repeat) || 1);
const delayMs = Math.max(0, Number(values['delay-ms']) || 0);

const ROOT = values.root ? join(values.root, '/') : fileURLToPath(new URL('../', import.meta.url));
const BIN = join(ROOT, 'bin', 'payconnect-conformance.js');
const TIME = '/usr/bin/time';
/** Preloaded into the run's processes: counts the connections they open (bench/count-connections.cjs). */
const COUNT_CONNECTIONS = fileURLToPath(new URL('./count-connections.cjs', import.meta.url));
/** Preloaded into the run's processes: what each cost (bench/cpu-by-process.cjs). */
const CPU_BY_PROCESS = fileURLToPath(new URL('./cpu-by-process.cjs', import.meta.url));

/** NODE_OPTIONS as this process has them, with `files` preloaded too (into every process the child starts). */
const preloading = (...files: string[]): string => [process.env.NODE_OPTIONS ?? '', ...files.map((f) => `--require ${f}`)].join(' ').trim();

/** What one process of a run cost (bench/cpu-by-process.cjs). */
interface ProcessFigures {
  role: 'run' | 'worker' | 'allure' | 'sim' | 'other';
  cpuS: number;
  maxRssMb: number;
  lifeS: number;
}

/** The figures the processes wrote into `dir` (which is removed); a file cut short as it was written (a process killed then) is left out. */
function takeProcessFigures(dir: string): ProcessFigures[] {
  const figures = readdirSync(dir).flatMap((pid) => {
    try {
      return [JSON.parse(readFileSync(join(dir, pid), 'utf8')) as ProcessFigures];
    } catch {
      return [];
    }
  });
  rmSync(dir, { recursive: true, force: true });
  return figures;
}

interface Floor {
  /** Σ of the time each convergence waited for the terminal to reach its final status, s. */
  terminalS: number;
  /** Σ of the time waited after that (settle window, webhook grace), s. */
  pastFinalS: number;
  convergences: number;
  terminals: number;
}

interface Figures {
  floor?: Floor;
  split?: Split;
  /** The wall time outside the tests: to the first test's start, and after the last test's end, s. */
  outside?: { startS: number; endS: number };
  /** What opening one connection cost against the target, ms (URL runs). */
  connectMs?: number;
  /** TCP connections the run's processes opened (bench/count-connections.cjs). */
  connections?: number;
  wallS: number;
  /** User + system CPU of the run and every process it started, s (from /usr/bin/time). */
  cpuS?: number;
  /** The same by process (bench/cpu-by-process.cjs), the shortest-lived first. */
  processes?: ProcessFigures[];
  /** What a URL run's sim cost over its whole life (started before the run, stopped after it). */
  sim?: ProcessFigures;
  maxRssMb?: number;
  code: number | null;
  verdict?: string;
  tests?: number;
  requests?: number;
  reports?: DirSize;
}

/** Runs `node bin run <args>` under /usr/bin/time (when there) with its own reports folder. */
function timedRun(args: string[]): Promise<Figures> {
  const reports = mkdtempSync(join(tmpdir(), 'pcc-bench-'));
  const timeFile = join(reports, 'time.txt');
  const connectionsDir = mkdtempSync(join(tmpdir(), 'pcc-bench-connections-'));
  const cpuDir = mkdtempSync(join(tmpdir(), 'pcc-bench-cpu-'));
  // --shard 1/1 runs everything and also writes run-record.json, which counts the requests.
  const runArgs = [BIN, 'run', '--reports', reports, '--shard', '1/1', ...args];
  const [cmd, argv] = existsSync(TIME)
    ? [TIME, ['-f', '%M %e %U %S', '-o', timeFile, process.execPath, ...runArgs]]
    : [process.execPath, runArgs];
  const started = Date.now();
  return new Promise((resolve) => {
    const env = {
      ...process.env,
      CI: 'true',
      NODE_OPTIONS: preloading(COUNT_CONNECTIONS, CPU_BY_PROCESS),
      PCC_BENCH_CONNECTIONS: connectionsDir,
      PCC_BENCH_CPU: cpuDir,
    };
    const child = spawn(cmd, argv, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], env });
    child.on('close', (code) => {
      const wallS = (Date.now() - started) / 1000;
      const out: Figures = { wallS, code };
      if (existsSync(timeFile)) {
        // The last line (time prints a status line before it when the command failed): max RSS KB, wall, user, sys.
        const [rss, , user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.trim().split(/\s+/).map(Number);
        out.maxRssMb = rss! / 1024;
        out.cpuS = user! + sys!;
      }
      try {
        const summary = JSON.parse(readFileSync(join(reports, 'summary.json'), 'utf8')) as { verdict: string; counts: { tests: number } };
        const record = JSON.parse(readFileSync(join(reports, 'run-record.json'), 'utf8')) as {
          record: { tests: { exchangeCount: number }[] };
        };
        out.verdict = summary.verdict;
        out.tests = summary.counts.tests;
        out.requests = record.record.tests.reduce((n, t) => n + t.exchangeCount, 0);
        const terminals = (summary as { harness?: { terminals?: number } }).harness?.terminals ?? 1;
        out.floor = floorOf(reports, terminals);
        const transcript = join(reports, 'transcript.jsonl.gz');
        if (existsSync(transcript)) {
          const lines = gunzipSync(readFileSync(transcript)).toString('utf8').split('\n');
          out.split = splitOf(lines, terminals, wallS);
          out.outside = outsideOf(lines, started, wallS);
        }
      } catch {
        /* no reports: the exit code says why */
      }
      out.connections = readdirSync(connectionsDir).reduce((n, pid) => n + Number(readFileSync(join(connectionsDir, pid), 'utf8')), 0);
      rmSync(timeFile, { force: true });
      rmSync(connectionsDir, { recursive: true, force: true });
      out.processes = takeProcessFigures(cpuDir).sort((a, b) => a.lifeS - b.lifeS);
      out.reports = dirSize(reports);
      rmSync(reports, { recursive: true, force: true });
      resolve(out);
    });
  });
}

/**
 * The run's start and end, outside its tests: from the command's start to the first test's start
 * (process, config, target, vitest and its workers, module loading), and from the last test's end to
 * the command's exit (unpairing, reports, HTML). The first pairing is inside the first tests.
 */
function outsideOf(lines: readonly string[], startedAt: number, wallS: number): { startS: number; endS: number } | undefined {
  let first = Infinity;
  let last = -Infinity;
  for (const text of lines) {
    if (!text.includes('"kind":"test"')) continue;
    const r = (JSON.parse(text) as { record?: { startedAt?: string; durationMs: number } }).record;
    if (!r?.startedAt) continue;
    const at = Date.parse(r.startedAt);
    first = Math.min(first, at);
    last = Math.max(last, at + r.durationMs);
  }
  if (!Number.isFinite(first)) return undefined;
  return { startS: (first - startedAt) / 1000, endS: wallS - (last - startedAt) / 1000 };
}

interface Observation {
  polled?: { status: string; atMs: number }[];
  webhooks?: { status: string; atMs: number }[];
  finalByPoll?: string | null;
  finalByWebhook?: string | null;
  elapsedMs: number;
}

/** The terminal-time floor of a run, from the convergences its transcript holds. */
function floorOf(reports: string, terminals: number): Floor | undefined {
  const file = join(reports, 'transcript.jsonl.gz');
  if (!existsSync(file)) return undefined;
  let terminalMs = 0;
  let pastMs = 0;
  let convergences = 0;
  for (const text of gunzipSync(readFileSync(file)).toString('utf8').split('\n')) {
    if (!text.includes('"kind":"convergence"')) continue;
    const o = (JSON.parse(text) as { observation: Observation }).observation;
    const finals = [o.finalByPoll, o.finalByWebhook].filter((s): s is string => typeof s === 'string');
    const at = [...(o.polled ?? []), ...(o.webhooks ?? [])].filter((x) => finals.includes(x.status)).map((x) => x.atMs);
    // Never final (a deadline missed): the whole wait was the terminal's. Final before the wait began (a
    // webhook that beat the answer that started it): none of it was.
    const reached = at.length > 0 ? Math.min(o.elapsedMs, Math.max(0, Math.min(...at))) : o.elapsedMs;
    terminalMs += reached;
    pastMs += Math.max(0, o.elapsedMs - reached);
    convergences++;
  }
  return { terminalS: terminalMs / 1000, pastFinalS: pastMs / 1000, convergences, terminals };
}

/**
 * Starts `sim` as its own process; resolves with its base URL and a stop function, which resolves
 * with what the sim cost (bench/cpu-by-process.cjs) once it is gone.
 */
function startSim(): Promise<{ url: string; stop: () => Promise<ProcessFigures | undefined> }> {
  const cpuDir = mkdtempSync(join(tmpdir(), 'pcc-bench-cpu-'));
  const child = spawn(process.execPath, [BIN, 'sim', '--step-delay', '100', '--deadline', '2500', '--otps', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: preloading(CPU_BY_PROCESS), PCC_BENCH_CPU: cpuDir },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<ProcessFigures | undefined> => {
    child.kill('SIGTERM');
    await exited;
    return takeProcessFigures(cpuDir)[0];
  };
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`sim did not print its URL: ${text}`)), 30_000);
    child.stdout.on('data', (b: Buffer) => {
      text += b.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(text)?.[0];
      if (url) {
        clearTimeout(timer);
        child.stdout.resume();
        resolve({ url, stop });
      }
    });
  });
}

function line(name: string, f: Figures): string {
  const rps = f.requests !== undefined ? `${(f.requests / f.wallS).toFixed(0)} req/s (${f.requests} requests)` : '-';
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  const size = f.reports ? `reports ${mb(f.reports.bytes)} MB (${mb(f.reports.disk)} MB on disk, ${f.reports.files} files)` : 'no reports';
  const floor = f.floor
    ? `, floor ${(f.floor.terminalS / f.floor.terminals).toFixed(1)} s (terminal waits ${f.floor.terminalS.toFixed(1)} s in ${f.floor.convergences} convergences over ${f.floor.terminals} terminals; waited past the final status ${(f.floor.pastFinalS / f.floor.terminals).toFixed(1)} s per terminal)`
    : '';
  const terminals = f.floor?.terminals ?? 1;
  const connect =
    f.connections !== undefined && f.connectMs !== undefined
      ? `; ${f.connections} connections opened (${f.split?.posts ?? '?'} POSTs), their set-up about ${((f.connections * f.connectMs) / 1000 / terminals).toFixed(1)} s per terminal (${f.connectMs.toFixed(2)} ms each, inside requests)`
      : '';
  const outside = f.outside
    ? ` (start ${f.outside.startS.toFixed(1)} s to the first test, end ${f.outside.endS.toFixed(1)} s after the last)`
    : '';
  const split = f.split ? `\n  split ${splitLine(f.split, terminals)}${outside}${connect}` : '';
  const cpu = f.processes?.length ? `\n  cpu ${cpuLine(f.processes, f.wallS, f.sim)}` : '';
  return `${name}: ${f.wallS.toFixed(1)} s wall${floor}, ${f.cpuS?.toFixed(1) ?? '?'} CPU-s, max RSS ${f.maxRssMb?.toFixed(0) ?? '?'} MB, exit ${f.code}, ${f.verdict ?? 'no summary'}, ${f.tests ?? '?'} tests, ${rps}, ${size}${split}${cpu}`;
}

/**
 * Where the run's CPU went, by process, and how much of the cores' time over the wall time that is:
 * near 100%, the run waits on the CPU, not on the service. A URL run's sim, which shares the cores, is
 * said apart (its whole life, its start and the bench's connection probe included). Then the cores'
 * floor: the wall time the same CPU would take with every core busy from start to end (the sim's
 * included), as the terminal floor is for waits: no order of the work runs faster on these cores.
 */
function cpuLine(processes: readonly ProcessFigures[], wallS: number, sim?: ProcessFigures): string {
  const cores = availableParallelism();
  const total = processes.reduce((n, p) => n + p.cpuS, 0);
  const share = (100 * total) / (wallS * cores);
  const each = processes.map((p) => `${p.role} ${p.cpuS.toFixed(2)} s (${p.maxRssMb.toFixed(0)} MB, lived ${p.lifeS.toFixed(1)} s)`);
  const apart = sim ? `; the sim, apart, ${sim.cpuS.toFixed(2)} s over its ${sim.lifeS.toFixed(1)} s` : '';
  const all = total + (sim?.cpuS ?? 0);
  return (
    `${each.join(', ')}: ${total.toFixed(1)} CPU-s, ${share.toFixed(0)}% of ${cores} cores over the wall time${apart}; ` +
    `floor on the cores ${(all / cores).toFixed(1)} s (${all.toFixed(1)} CPU-s${sim ? ' with the sim' : ''} over ${cores} cores)`
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

function report(name: string, runs: Figures[]): void {
  runs.forEach((f, i) => console.log(line(`${name}${runs.length > 1 ? ` #${i + 1}` : ''}`, f)));
  if (runs.length > 1)
    console.log(
      `${name}: median ${median(runs.map((f) => f.wallS)).toFixed(1)} s wall, median ${median(runs.map((f) => f.cpuS ?? 0)).toFixed(1)} CPU-s, median max RSS ${median(runs.map((f) => f.maxRssMb ?? 0)).toFixed(0)} MB`,
    );
}

if (!values['skip-sim']) {
  const simRuns: Figures[] = [];
  for (let i = 0; i < repeat; i++) simRuns.push(await timedRun(extra));
  report('sim (embedded, with HTML)', simRuns);
}

if (!values['skip-url']) {
  const urlRuns: Figures[] = [];
  for (let i = 0; i < repeat; i++) {
    const sim = await startSim();
    const proxy = delayMs > 0 ? await startDelayingProxy(sim.url, /./, delayMs) : undefined;
    const url = proxy?.url ?? sim.url;
    const vault = mkdtempSync(join(tmpdir(), 'pcc-bench-vault-'));
    let f: Figures | undefined;
    try {
      f = await timedRun([
        '--target',
        url,
        '--integrator-id',
        'sim-integrator',
        '--profile',
        'sandbox',
        '--vault',
        join(vault, 'vault.json'),
        ...extra,
      ]);
      f.connectMs = await estimateConnectMs(url);
      urlRuns.push(f);
    } finally {
      await proxy?.close();
      const simCost = await sim.stop();
      if (f && simCost) f.sim = simCost;
      rmSync(vault, { recursive: true, force: true });
    }
  }
  report(
    `URL (sim --step-delay 100 --deadline 2500, separate process${delayMs > 0 ? `, every answer ${delayMs} ms late` : ''}, with HTML)`,
    urlRuns,
  );
}
