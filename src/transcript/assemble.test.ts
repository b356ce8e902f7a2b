/** Unit tests of the transcript's assembly from the workers' staging files. */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../config/testing.ts';
import type { TestRecord } from '../report/index.ts';
import { LineChunker, assembleTranscript, readTranscript } from './assemble.ts';
import { TranscriptRecorder } from './recorder.ts';

const { emptyDir } = useTempDirs();

const line = (test: string, seq: number, w: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ kind: 'exchange', test, scope: 1, time: '2026-01-01T00:00:00.000Z', seq, w, ...extra });

describe('assembleTranscript', () => {
  it("orders the workers' lines by test and sequence, keeps each as written, and leaves out a half-written last line", async () => {
    const dir = await emptyDir();
    const staging = join(dir, 'staging');
    mkdirSync(staging);
    const names = ['b > ünïcode “quoted” \\ test', 'a > first'];
    // A line of 1.4 MB: longer than the assembly reads at a time.
    writeFileSync(join(staging, 'w1-1.jsonl'), `${line(names[0]!, 2, 1, { body: 'é'.repeat(700_000) })}\n${line(names[1]!, 1, 1)}\n`);
    writeFileSync(join(staging, 'w2-1.jsonl'), `${line(names[0]!, 1, 2)}\n${line(names[1]!, 3, 2)}\n{"kind":"exchange","test":"a > fi`);
    const tests = [{ name: names[1] }, { name: names[0] }] as unknown as TestRecord[];
    const out = await assembleTranscript({ stagingDir: staging, reportsDir: dir, header: { info: { tool: 'x' } } as never, tests });
    expect(out.events).toBe(6);
    expect(out.bytes).toBeGreaterThan(0);
    const { header, events } = await readTranscript(dir);
    expect(header.kind).toBe('header');
    expect(events.map((e) => `${e.kind} ${e.test} w${e.w} #${e.seq}`)).toEqual([
      `exchange ${names[1]} w1 #1`,
      `exchange ${names[1]} w2 #3`,
      `test ${names[1]} w0 #1`,
      `exchange ${names[0]} w1 #2`,
      `exchange ${names[0]} w2 #1`,
      `test ${names[0]} w0 #2`,
    ]);
    expect((events[3] as unknown as { body: string }).body).toBe('é'.repeat(700_000));
  });

  it("reads the order's fields from the start of the lines the workers' recorders write, each line kept byte for byte", async () => {
    const dir = await emptyDir();
    const staging = join(dir, 'staging');
    mkdirSync(staging);
    const names = ['b > ünïcode “quoted” \\ "test"', 'a > first'];
    const recorders = [1, 2].map((w) => new TranscriptRecorder(staging, w, (v) => v));
    recorders[0]!.add({ kind: 'scope', test: names[0]!, scope: 1 });
    recorders[1]!.add({ kind: 'scope', test: names[1]!, scope: 1 });
    recorders[0]!.add({ kind: 'scope', test: names[1]!, scope: 2 });
    recorders[1]!.add({ kind: 'scope', test: names[0]!, scope: 2 });
    await Promise.all(recorders.map((r) => r.flush()));
    const staged = recorders.map((r) => readFileSync(r.file, 'utf8'));
    expect(staged[0]).toMatch(/^\{"kind":"scope","test":"b > .*","seq":1,"w":1,/);
    // A worker that ended as it wrote: its last line cut short is left out.
    appendFileSync(recorders[1]!.file, `{"kind":"scope","test":"a > first","seq":3,"w":2,"sco`);
    const tests = [{ name: names[1] }, { name: names[0] }] as unknown as TestRecord[];
    const out = await assembleTranscript({ stagingDir: staging, reportsDir: dir, header: { info: { tool: 'x' } } as never, tests });
    expect(out.events).toBe(6);
    const { events } = await readTranscript(dir);
    expect(events.map((e) => `${e.kind} ${e.test} w${e.w} #${e.seq}`)).toEqual([
      `scope ${names[1]} w1 #2`,
      `scope ${names[1]} w2 #1`,
      `test ${names[1]} w0 #1`,
      `scope ${names[0]} w1 #1`,
      `scope ${names[0]} w2 #2`,
      `test ${names[0]} w0 #2`,
    ]);
    const written = [...staged.join('').split('\n').filter(Boolean)].sort();
    expect(
      events
        .filter((e) => e.kind === 'scope')
        .map((e) => JSON.stringify(e))
        .sort(),
    ).toEqual(written);
  });

  it('says a reports folder it cannot write in is a report-write error, and ends', async () => {
    const dir = await emptyDir();
    const staging = join(dir, 'staging');
    mkdirSync(staging);
    writeFileSync(
      join(staging, 'w1-1.jsonl'),
      `${Array.from({ length: 2000 }, (_, i) => line('t', i, 1, { body: 'x'.repeat(500) })).join('\n')}\n`,
    );
    const err = await assembleTranscript({
      stagingDir: staging,
      reportsDir: join(dir, 'missing', 'folder'),
      header: {} as never,
      tests: [],
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'PCC_REPORT_WRITE' });
  });
});

describe('LineChunker', () => {
  it('hands lines over in chunks of about its size, each line whole with its newline, none lost or reordered', () => {
    const chunker = new LineChunker(100);
    const lines: (string | Uint8Array)[] = ['ä'.repeat(30), 'b'.repeat(40), Buffer.from('c'.repeat(20)), 'd'.repeat(250), 'e'];
    const chunks: Buffer[] = [];
    for (const l of lines) {
      const full = chunker.add(l);
      if (full) chunks.push(full);
    }
    const rest = chunker.take();
    expect(chunker.take()).toBeUndefined();
    // 61 + 41 bytes reach 100 at the second line; 21 + 251 at the fourth (a long line is not split); 'e' is left.
    expect(chunks.map((c) => c.length)).toEqual([102, 272]);
    expect(rest?.toString()).toBe('e\n');
    expect(Buffer.concat([...chunks, rest!]).toString('utf8')).toBe(
      `${lines.map((l) => (typeof l === 'string' ? l : Buffer.from(l).toString())).join('\n')}\n`,
    );
  });
});
