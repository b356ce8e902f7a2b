/**
 * The engine's side of the transcript: the workers' files in the staging folder, the tests' records
 * and the whole run's check become `transcript.jsonl.gz`, header first, events by test and sequence,
 * written whole or not at all. Also reading one back, and merging the shards' transcripts.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, createWriteStream, existsSync, openSync, readSync } from 'node:fs';
import { readFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, gunzip } from 'node:zlib';
import { ToolkitError } from '../core/index.ts';
import type { TestRecord } from '../report/index.ts';
import { recordedFinding } from './recorder.ts';
import {
  type CheckEvent,
  type HeaderLine,
  TRANSCRIPT_FILE,
  TRANSCRIPT_FORMAT,
  type TestEvent,
  type TranscriptEvent,
  compareEvents,
  groupKey,
} from './format.ts';

const gunzipAsync = promisify(gunzip);

/** The name of the whole run's test (judge-run.ts names it so). */
export const WHOLE_RUN_TEST = 'webhooks > the service sends webhooks (over the whole run)';

/** The whole run's check (judge-run.ts). */
export const WHOLE_RUN_CHECK = 'webhook.service-sends';

/** The whole run's check invocation: its input, and the findings of its test (none when it held). */
export function wholeRunCheckEvent(input: unknown, test: TestRecord | undefined): CheckEvent {
  return {
    kind: 'check',
    test: test?.name ?? WHOLE_RUN_TEST,
    time: new Date().toISOString(),
    seq: 1,
    w: 0,
    scope: 0,
    id: WHOLE_RUN_CHECK,
    input,
    outcome: test ? 'fail' : 'pass',
    findings: (test?.findings ?? []).map((f) => recordedFinding(f, 'filed')),
  };
}

/** A transcript read back. */
export interface Transcript {
  header: HeaderLine;
  events: TranscriptEvent[];
}

/** The header, without what every line has. */
export type Header = Omit<HeaderLine, 'kind' | 'format' | 'test' | 'time' | 'seq'>;

/** A test's record as its transcript line keeps it: exchanges and deliveries are events of their own. */
export function testLine(t: TestRecord, seq: number): TestEvent {
  const { exchanges: _x, deliveries: _d, ...rest } = t;
  return { kind: 'test', test: t.name, time: t.startedAt ?? new Date(0).toISOString(), seq, w: 0, record: rest };
}

/** A test's operator entries (manual mode) as events. */
function operatorEvents(t: TestRecord): TranscriptEvent[] {
  return (t.operator ?? []).map((entry, i) => ({ kind: 'operator', test: t.name, time: entry.at, seq: i + 1, w: 0, entry }));
}

/** Writes `lines` as gzip'd JSON lines to `path`, whole or not at all; its size in bytes. */
export async function writeTranscriptFile(path: string, header: HeaderLine, events: readonly TranscriptEvent[]): Promise<number> {
  return writeTranscriptLines(
    path,
    [header, ...events].map((l) => JSON.stringify(l)),
  );
}

/** What the transcript's lines are handed to gzip in, about (a line is never split: a longer one makes a longer chunk). */
const ZIP_CHUNK_BYTES = 64 * 1024;

/** Lines gathered into one buffer of about `size` bytes, each with its newline. */
export class LineChunker {
  #parts: Uint8Array[] = [];
  #bytes = 0;

  constructor(private readonly size: number) {}

  /** Adds `line` and its newline; the chunk when it reached `size` (then started again), else undefined. */
  add(line: string | Uint8Array): Buffer | undefined {
    const bytes = typeof line === 'string' ? Buffer.from(line, 'utf8') : line;
    this.#parts.push(bytes, NEWLINE);
    this.#bytes += bytes.length + 1;
    return this.#bytes >= this.size ? this.take() : undefined;
  }

  /** What was gathered since the last chunk, or undefined when nothing was. */
  take(): Buffer | undefined {
    if (this.#bytes === 0) return undefined;
    const out = Buffer.concat(this.#parts, this.#bytes);
    this.#parts = [];
    this.#bytes = 0;
    return out;
  }
}

const NEWLINE = Buffer.from('\n');

/** Writes JSON lines already serialised (the header first) to `path`, gzip'd, whole or not at all; its size in bytes. */
async function writeTranscriptLines(path: string, lines: Iterable<string | Uint8Array>): Promise<number> {
  const tmp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  let bytes = 0;
  try {
    // Streamed, a line at a time: the whole transcript is never one string nor one buffer (a thorough
    // run's is tens of MB; joined and gzip'd at once it was the run's peak of memory).
    const zip = createGzip({ level: 6 });
    zip.on('data', (c: Buffer) => (bytes += c.length));
    const done = pipeline(zip, createWriteStream(tmp));
    // Awaited below; a failure meanwhile (the folder cannot be written) also ends a wait for 'drain'.
    done.catch(() => {});
    const drained = () => Promise.race([once(zip, 'drain'), done]);
    // Handed to gzip in chunks of about ZIP_CHUNK_BYTES: a write per line (two, with its newline) cost
    // a pass through the stream and the zlib thread each, 0.2 CPU-s of a default run's report phase
    // for 6 MB in 5,600 lines, where compressing them takes 40 ms.
    const chunk = new LineChunker(ZIP_CHUNK_BYTES);
    for (const line of lines) {
      const full = chunk.add(line);
      if (full && !zip.write(full)) await drained();
    }
    const rest = chunk.take();
    if (rest) zip.write(rest);
    zip.end();
    await done;
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw new ToolkitError(
      'PCC_REPORT_WRITE',
      `could not write ${path}: ${(e as Error).message}`,
      'check that the --reports folder is writable',
      { cause: e },
    );
  }
  return bytes;
}

/** A line as the assembly orders it: the fields the order needs, and where its bytes are. */
interface StagedLine {
  key: TranscriptEvent;
  /** The line as written: where it is in a staged file (read again when written), or the serialised event. */
  raw: { fd: number; offset: number; length: number } | string;
}

/**
 * The lines the workers wrote to the staging folder (a line cut short by a crashed worker is left
 * out), kept as written: each is parsed only for the fields the order needs, and kept as where it is
 * in its file, so the main process never holds the whole run's events as objects or strings, nor
 * serialises them again, nor holds a file's bytes at once (a thorough run's are 10-12 MB a worker:
 * the run's peak of memory was these, held until the transcript was written). Read a megabyte at a
 * time; the files stay open (`fds`) for the lines to be read again in the transcript's order.
 */
async function stagedLines(dir: string, fds: number[]): Promise<StagedLine[]> {
  if (!existsSync(dir)) return [];
  const out: StagedLine[] = [];
  const names = new Map<string, string>();
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort()) {
    const fd = openSync(join(dir, name), 'r');
    fds.push(fd);
    for (const line of linesOf(fd)) {
      // A line a worker was writing when it ended has no newline: kept only when it parses whole.
      const key = (line.whole ? keyOfLine(line.bytes.toString('utf8', 0, KEY_BYTES), names) : undefined) ?? fullKey(line.bytes);
      if (key) out.push({ key, raw: { fd, offset: line.offset, length: line.bytes.length } });
    }
  }
  return out;
}

/** Bytes read from a staged file at a time (a longer line grows it). */
const READ_BYTES = 1 << 20;

/**
 * The lines of the file open as `fd`, each with its offset and whether a newline ended it, read a
 * chunk at a time into one buffer: a file's bytes are never all held at once (each line's bytes are
 * a view of that buffer, valid until the next line is asked for).
 */
function* linesOf(fd: number): Generator<{ offset: number; bytes: Buffer; whole: boolean }> {
  let buf = Buffer.allocUnsafe(READ_BYTES);
  let have = 0;
  let base = 0;
  for (let eof = false; ;) {
    if (have === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, have);
      buf = bigger;
    }
    const n = readSync(fd, buf, have, buf.length - have, base + have);
    if (n === 0) eof = true;
    have += n;
    const view = buf.subarray(0, have);
    let start = 0;
    for (let nl = view.indexOf(0x0a, start); nl >= 0; nl = view.indexOf(0x0a, start)) {
      if (nl > start) yield { offset: base + start, bytes: view.subarray(start, nl), whole: true };
      start = nl + 1;
    }
    if (eof) {
      if (start < have) yield { offset: base + start, bytes: view.subarray(start, have), whole: false };
      return;
    }
    buf.copy(buf, 0, start, have);
    base += start;
    have -= start;
  }
}

/**
 * How much of a line's start {@link keyOfLine} reads: the fields and a test's name of 300 characters
 * (a longer one, or a line not as the recorder writes it, is parsed whole).
 */
const KEY_BYTES = 384;

/** The fields the order needs at the start of a worker's line, as its recorder writes them (recorder.ts add). */
const KEY_FIELDS = /^\{"kind":"(\w+)","test":("(?:[^"\\]|\\.)*"),"seq":(\d+),"w":(\d+)[,}]/;

/**
 * The order's fields of a staged line from its start alone: parsing each whole line (a thorough run's
 * are 34 MB in 30,000 lines) only to read four fields made the run's peak of memory. Undefined when
 * the start is not as the recorder writes it: the line is then parsed whole.
 */
function keyOfLine(start: string, names: Map<string, string>): TranscriptEvent | undefined {
  const m = KEY_FIELDS.exec(start);
  if (!m) return undefined;
  // A test's name, once for all its lines.
  let test = names.get(m[2]!);
  if (test === undefined) names.set(m[2]!, (test = JSON.parse(m[2]!) as string));
  return { kind: m[1], test, seq: Number(m[3]), w: Number(m[4]) } as TranscriptEvent;
}

/** The order's fields of a line parsed whole; undefined for a line that does not parse (one cut short). */
function fullKey(bytes: Buffer): TranscriptEvent | undefined {
  try {
    const e = JSON.parse(bytes.toString('utf8')) as TranscriptEvent;
    return { kind: e.kind, test: e.test, seq: e.seq, w: e.w, shard: e.shard } as TranscriptEvent;
  } catch {
    return undefined;
  }
}

/** A staged line's bytes, read again from its file; a serialised event as it is. */
function lineBytes(raw: StagedLine['raw']): Uint8Array | string {
  if (typeof raw === 'string') return raw;
  const bytes = Buffer.allocUnsafe(raw.length);
  let read = 0;
  while (read < raw.length) {
    const n = readSync(raw.fd, bytes, read, raw.length - read, raw.offset + read);
    if (n === 0) throw new Error(`a staged transcript file ended before its line at byte ${raw.offset}`);
    read += n;
  }
  return bytes;
}

/**
 * Assembles the run's transcript into `reportsDir`: the header, the workers' events, each test's
 * record (and operator entries), and `extra` (the whole run's check); removes the staging folder.
 */
export async function assembleTranscript(opts: {
  stagingDir: string;
  reportsDir: string;
  header: Header;
  tests: readonly TestRecord[];
  extra?: TranscriptEvent[];
}): Promise<{ path: string; bytes: number; events: number }> {
  const fds: number[] = [];
  try {
    const lines = await stagedLines(opts.stagingDir, fds);
    for (const e of [...opts.tests.flatMap(operatorEvents), ...opts.tests.map((t, i) => testLine(t, i + 1)), ...(opts.extra ?? [])])
      lines.push({ key: e, raw: JSON.stringify(e) });
    const order = new Map(opts.tests.map((t, i) => [groupKey({ test: t.name }), i]));
    const compare = compareEvents(order);
    lines.sort((a, b) => compare(a.key, b.key));
    const path = join(opts.reportsDir, TRANSCRIPT_FILE);
    const header: HeaderLine = {
      kind: 'header',
      format: TRANSCRIPT_FORMAT,
      test: '',
      time: new Date().toISOString(),
      seq: 0,
      ...opts.header,
    };
    const bytes = await writeTranscriptLines(
      path,
      (function* () {
        yield JSON.stringify(header);
        for (const l of lines) yield lineBytes(l.raw);
      })(),
    );
    return { path, bytes, events: lines.length };
  } finally {
    for (const fd of fds) closeSync(fd);
    await rm(opts.stagingDir, { recursive: true, force: true });
  }
}

/** Reads the transcript of a reports folder; a folder without one, or another format, is a usage error. */
export async function readTranscript(dir: string): Promise<Transcript> {
  const path = join(dir, TRANSCRIPT_FILE);
  if (!existsSync(path))
    throw new ToolkitError(
      'PCC_USAGE',
      `${dir} holds no ${TRANSCRIPT_FILE}`,
      'give the reports folder of a run (or merge) made by a toolkit that writes transcripts',
    );
  let lines: unknown[];
  try {
    const text = (await gunzipAsync(await readFile(path))).toString('utf8');
    lines = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as unknown);
  } catch (e) {
    throw new ToolkitError(
      'PCC_USAGE',
      `${path} is not a gzip'd JSON-lines transcript: ${(e as Error).message}`,
      'the file is written whole or not at all: it was changed afterwards',
      { cause: e },
    );
  }
  const [header, ...events] = lines as [HeaderLine, ...TranscriptEvent[]];
  if (header?.kind !== 'header' || header.format !== TRANSCRIPT_FORMAT) {
    throw new ToolkitError(
      'PCC_USAGE',
      `${path} is not a transcript of this version (${String(header?.format)})`,
      `re-judge transcripts made by the same format (${TRANSCRIPT_FORMAT})`,
    );
  }
  return { header, events };
}

/**
 * The shards' transcripts as one, in `outDir`: the merged run's header (the first shard's settings),
 * then each shard's events in shard order, each marked with its shard. Undefined (nothing written)
 * when a shard has no transcript.
 */
export async function mergeTranscripts(
  shards: readonly { dir: string; index: number }[],
  outDir: string,
  header: Omit<Header, 'settings'>,
): Promise<{ path: string; bytes: number } | undefined> {
  const read = await Promise.all(
    shards.map(async (s) => (existsSync(join(s.dir, TRANSCRIPT_FILE)) ? { s, t: await readTranscript(s.dir) } : undefined)),
  );
  if (read.length === 0 || read.some((r) => r === undefined)) return undefined;
  const events = read.flatMap((r) => r!.t.events.map((e) => ({ ...e, shard: r!.s.index })));
  const path = join(outDir, TRANSCRIPT_FILE);
  const first = read[0]!.t.header;
  const bytes = await writeTranscriptFile(
    path,
    { kind: 'header', format: TRANSCRIPT_FORMAT, test: '', time: new Date().toISOString(), seq: 0, settings: first.settings, ...header },
    events,
  );
  return { path, bytes };
}
