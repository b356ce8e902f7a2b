/**
 * Runs the same conformance run several times and prints each run's verdict, so a flaky suite, or a
 * verdict that changes with the machine's load, shows here and not in CI.
 *
 *   npx tsx bench/repeat.ts [N] [run options...]           N runs in a row against the embedded sim
 *   npx tsx bench/repeat.ts --fault F [--fault G] --runs 5 --parallel 2 [--url-sim] [-- run options...]
 *   npx tsx bench/repeat.ts --runs 3 --parallel 3 --url-sim --shared-sim --keep-alive 1000 --load 2
 *
 * Every run is a process of its own (`payconnect-conformance run`), at most `--parallel` at a time, to
 * load the machine as CI does. `--fault` turns a simulator fault switch on; with `--url-sim` each run
 * gets its own `sim --step-delay 100 --deadline 2500` process and runs against its URL. A run's verdict
 * signature is its exit code, its verdict, its findings (severity and check) and the checks that
 * blocked tests; the script exits 1 unless every run gave the same one.
 *
 * `--shared-sim` makes the runs share one sim process (one sandbox under several CI jobs), and
 * `--keep-alive announced|close|MS` is handed to the sims (a proxy in front that closes idle
 * connections without a word, or Connection: close every time). `--load N` keeps N more processes
 * busy-looping for the whole batch, one per core being a runner shared with other jobs. Each run's
 * line also prints how the harness fared (summary.json harness: the longest event-loop stall, CPU
 * time, waits measured again, overload).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/payconnect-conformance.js', import.meta.url));
const CHILD_ENV = { ...process.env, VITEST: undefined, VITEST_WORKER_ID: undefined, VITEST_POOL_ID: undefined, NODE_OPTIONS: undefined };

interface Options {
  runs: number;
  parallel: number;
  faults: string[];
  urlSim: boolean;
  sharedSim: boolean;
  keepAlive?: string;
  load: number;
  extra: string[];
}

function parse(argv: string[]): Options {
  const o: Options = { runs: 10, parallel: 1, faults: [], urlSim: false, sharedSim: false, load: 0, extra: [] };
  const positive = (flag: string, v: string | undefined) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} takes a whole number of at least 1 (got ${v ?? 'nothing'})`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      o.extra.push(...argv.slice(i + 1));
      break;
    }
    if (a === '--runs') o.runs = positive(a, argv[++i]);
    else if (a === '--parallel') o.parallel = positive(a, argv[++i]);
    else if (a === '--fault') o.faults.push(argv[++i] ?? '');
    else if (a === '--url-sim') o.urlSim = true;
    else if (a === '--shared-sim') o.sharedSim = o.urlSim = true;
    else if (a === '--keep-alive') {
      // Only a sim process has the setting: it implies --url-sim.
      o.urlSim = true;
      o.keepAlive = argv[++i];
      if (!o.keepAlive) throw new Error('--keep-alive takes announced, close or a number of ms');
    } else if (a === '--load') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 0) throw new Error(`--load takes a whole number of processes (got ${argv[i] ?? 'nothing'})`);
      o.load = n;
    } else if (i === 0 && /^\d+$/.test(a)) o.runs = positive('N', a);
    else o.extra.push(a);
  }
  return o;
}

const children = new Set<ChildProcess>();
process.once('SIGINT', () => {
  for (const c of children) c.kill('SIGKILL');
  process.exitCode = 130;
});

function spawnCli(args: string[]): ChildProcess {
  const child = spawn(process.execPath, [BIN, ...args], { env: CHILD_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Starts a sim process and resolves with its URL and integrator id. */
function startSim(faults: string[], keepAlive?: string): Promise<{ url: string; integratorId: string; child: ChildProcess }> {
  const child = spawnCli([
    'sim',
    '--step-delay',
    '100',
    '--deadline',
    '2500',
    '--otps',
    '0',
    ...(keepAlive ? ['--keep-alive', keepAlive] : []),
    ...faults.flatMap((f) => ['--fault', f]),
  ]);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const integratorId = /integrator id: (\S+)/.exec(out)?.[1];
      if (url && integratorId) resolve({ url, integratorId, child });
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`sim exited (${code}):\n${out}`)));
  });
}

interface Summary {
  verdict: string;
  counts: { tests: number; passed: number; failed: number; skipped: number };
  findings: { severity: string; check: string }[];
  blocked?: { check: string }[];
  harness?: { terminals?: number; maxEventLoopDelayMs: number; cpuSeconds: number; remeasured: number; overloaded: boolean };
}

interface Outcome {
  index: number;
  code: number | null;
  seconds: number;
  summary?: Summary;
  signature: string;
}

const uniqueSorted = (xs: string[]) => [...new Set(xs)].sort();

function signatureOf(code: number | null, s: Summary | undefined): string {
  if (!s) return `exit ${code}, no summary`;
  const findings = uniqueSorted(s.findings.map((f) => `${f.severity} ${f.check}`));
  const blocked = uniqueSorted((s.blocked ?? []).map((b) => b.check));
  return `exit ${code}, ${s.verdict}; findings: ${findings.join(', ') || 'none'}; blocked by: ${blocked.join(', ') || 'nothing'}`;
}

type Sim = Awaited<ReturnType<typeof startSim>>;

async function oneRun(index: number, o: Options, shared?: Sim): Promise<Outcome> {
  const reports = mkdtempSync(join(tmpdir(), `pcc-repeat-${index}-`));
  const started = Date.now();
  const own = o.urlSim && !shared ? await startSim(o.faults, o.keepAlive) : undefined;
  const sim = shared ?? own;
  const target = sim
    ? ['--target', sim.url, '--integrator-id', sim.integratorId, '--profile', 'sandbox', '--vault', join(reports, 'vault.json')]
    : o.faults.flatMap((f) => ['--sim-fault', f]);
  const child = spawnCli(['run', '--no-html', '--reports', reports, ...target, ...o.extra]);
  child.stdout!.resume();
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  if (own) {
    own.child.kill('SIGTERM');
    await new Promise((r) => own.child.once('exit', r));
  }
  const file = join(reports, 'summary.json');
  const summary = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Summary) : undefined;
  if (!summary && stderr) process.stderr.write(`run ${index}: ${stderr.split('\n')[0]}\n`);
  return { index, code, seconds: (Date.now() - started) / 1000, summary, signature: signatureOf(code, summary) };
}

const o = parse(process.argv.slice(2));
const outcomes: Outcome[] = [];
// A runner shared with other jobs: processes that keep a core busy for the whole batch.
const load = Array.from({ length: o.load }, () => {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  children.add(child);
  return child;
});
const shared = o.sharedSim ? await startSim(o.faults, o.keepAlive) : undefined;
let next = 1;
async function worker(): Promise<void> {
  while (next <= o.runs && process.exitCode !== 130) {
    const r = await oneRun(next++, o, shared);
    outcomes.push(r);
    const c = r.summary?.counts;
    const h = r.summary?.harness;
    const fared = h
      ? `; harness: ${h.terminals ?? '?'} terminals, longest stall ${h.maxEventLoopDelayMs} ms, ${h.cpuSeconds} CPU-s, ${h.remeasured} measured again${h.overloaded ? ', OVERLOADED' : ''}`
      : '';
    console.log(
      `run ${r.index}: exit ${r.code} in ${r.seconds.toFixed(1)} s${c ? ` (${c.tests} tests: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped)` : ''}${fared}\n    ${r.signature}`,
    );
  }
}
console.log(
  `${o.runs} runs, ${o.parallel} at a time${o.faults.length > 0 ? `, fault ${o.faults.join(' + ')}` : ''}${o.urlSim ? (o.sharedSim ? ', all against one sim process as a URL target' : ', each against a sim process as a URL target') : ''}${o.keepAlive ? `, keep-alive ${o.keepAlive}` : ''}${o.load > 0 ? `, ${o.load} busy-looping processes beside` : ''}${o.extra.length > 0 ? `, run ${o.extra.join(' ')}` : ''}`,
);
await Promise.all(Array.from({ length: Math.min(o.parallel, o.runs) }, () => worker()));
for (const child of load) child.kill('SIGKILL');
if (shared) shared.child.kill('SIGTERM');

const seconds = outcomes.map((r) => r.seconds).sort((a, b) => a - b);
const median = seconds[Math.floor(seconds.length / 2)] ?? 0;
console.log(`wall time per run: min ${seconds[0]?.toFixed(1)} s, median ${median.toFixed(1)} s, max ${seconds.at(-1)?.toFixed(1)} s`);
const bySignature = new Map<string, number>();
for (const r of outcomes) bySignature.set(r.signature, (bySignature.get(r.signature) ?? 0) + 1);
for (const [sig, n] of bySignature) console.log(`${n} run(s): ${sig}`);
const passes = outcomes.filter((r) => r.code === 0).length;
console.log(`${passes} of ${outcomes.length} runs passed`);
console.log(bySignature.size === 1 ? 'identical verdicts: yes' : `identical verdicts: no (${bySignature.size} distinct)`);
if (bySignature.size !== 1 && process.exitCode === undefined) process.exitCode = 1;
