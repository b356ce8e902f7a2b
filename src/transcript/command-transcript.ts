/**
 * The transcript of a command that builds its tests itself (check-receiver, certify-client): the same
 * line format as a run's, written by the command's main process (worker 0) when its reports are. The
 * events are kept in memory as the command goes (a few hundred at most), redacted by value (the
 * command's secrets: the webhook key...) and capped as a run's are, and written once with the header
 * and each test's record. Imports core only, like the worker's recorder.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Exchange } from '../core/index.ts';
import type { RunRecord, TestRecord } from '../report/records.ts';
import { testLine, writeTranscriptFile } from './assemble.ts';
import {
  type CommandName,
  type Disposition,
  type HeaderLine,
  type RecordedFinding,
  type SentDeliveryFacts,
  TRANSCRIPT_FILE,
  TRANSCRIPT_FORMAT,
  type TranscriptEvent,
  capString,
  capValue,
} from './format.ts';
import { type FindingLike, recordedFinding } from './recorder.ts';

/** A delivery a command sent, as it hands it to {@link CommandTranscript.sentDelivery}. */
export interface SentDeliveryLike {
  seq: number;
  /** The receiver's URL as shown. */
  url: string;
  sentAt: string;
  headers: Readonly<Record<string, string>>;
  body: Buffer;
  event?: string;
  eventId?: string;
  /** The Signature header (null: none). */
  signature: string | null;
  /** Whether the signature is the receiver key's HMAC of these bytes. */
  genuine: boolean;
  label: string;
  expect: string;
  status?: number;
  errorCode?: string;
  durationMs: number;
  exchange: Exchange;
}

/** The settings and facts of the command's header. */
export interface CommandHeader {
  info: HeaderLine['info'];
  settings: HeaderLine['settings'];
  options: Record<string, unknown>;
  summary: Record<string, unknown>;
}

/** `value` with every occurrence of each secret in its strings (and keys) replaced. */
export function redactByValue<T>(value: T, secrets: readonly string[]): T {
  const list = secrets.filter((s) => s.length >= 4);
  if (list.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return list.reduce((s, x) => (s.includes(x) ? s.split(x).join('[REDACTED]') : s), v);
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [walk(k) as string, walk(x)]));
  };
  return walk(value) as T;
}

/** An event as a command writes it: the transcript stamps its time, sequence and worker. */
type EventDraft = TranscriptEvent extends infer E ? (E extends TranscriptEvent ? Omit<E, 'time' | 'seq' | 'w'> : never) : never;

export class CommandTranscript {
  #seq = 0;
  #scopes = 0;
  readonly #events: TranscriptEvent[] = [];
  readonly #scopeOf = new Map<string, number>();

  /** @param secrets values that must never be written (the webhook key...): replaced wherever they occur */
  constructor(
    readonly command: CommandName,
    private readonly secrets: readonly string[] = [],
  ) {}

  /** The scope of a test (one per test, made on first use). */
  scope(test: string): number {
    let s = this.#scopeOf.get(test);
    if (s === undefined) {
      s = ++this.#scopes;
      this.#scopeOf.set(test, s);
      this.push({ kind: 'scope', test, scope: s });
    }
    return s;
  }

  private push(draft: EventDraft): number {
    const seq = ++this.#seq;
    this.#events.push(redactByValue({ ...draft, time: new Date().toISOString(), seq, w: 0 } as TranscriptEvent, this.secrets));
    return seq;
  }

  /** A delivery sent to a receiver: its raw bytes (to the cap) and their digest, the signature and its verdict, the answer. */
  sentDelivery(test: string, d: SentDeliveryLike): number {
    const scope = this.scope(test);
    const raw = d.body.toString('utf8');
    const sent: SentDeliveryFacts = {
      label: d.label,
      expect: d.expect,
      signatureVerdict: d.signature === null || d.signature === '' ? 'absent' : d.genuine ? 'genuine' : 'forged',
      ...(d.errorCode ? { errorCode: d.errorCode } : {}),
      durationMs: d.durationMs,
      exchange: capValue(d.exchange).value as Exchange,
    };
    return this.push({
      kind: 'delivery',
      test,
      scope,
      pairing: d.url,
      delivery: {
        seq: d.seq,
        receivedAt: d.sentAt,
        method: 'POST',
        path: d.exchange.request.path,
        headers: { ...d.headers },
        event: d.event,
        eventId: d.eventId,
        signature: d.signature ?? '',
        status: d.status ?? 0,
        duplicate: false,
        failedOnPurpose: !d.genuine,
        bodySha256: createDigest(d.body),
        bodyLength: d.body.length,
        rawBody: capString(raw),
      },
      sent,
    });
  }

  /** One entry of the recording the command judges (test `''`: shared by its rules). */
  recording(entry: unknown): number {
    const { value, capped } = capValue(entry);
    return this.push({ kind: 'recording', test: '', entry: value, ...(capped ? { capped: true } : {}) });
  }

  /**
   * One rule's verdict: its id, its input (data; capped), its findings. `unjudgeable`: why it cannot
   * be judged again from the transcript (its findings are then carried over as recorded).
   */
  check(
    test: string,
    id: string,
    input: unknown,
    outcome: string,
    findings: readonly FindingLike[],
    o: { unjudgeable?: string; disposition?: Disposition } = {},
  ): number {
    const scope = this.scope(test);
    const { value, capped } = capValue(input);
    const unjudgeable = o.unjudgeable ?? (capped ? "its input was over the transcript's cap" : undefined);
    const recorded: RecordedFinding[] = findings.map((f) => recordedFinding(f, o.disposition ?? 'filed'));
    return this.push({
      kind: 'check',
      test,
      scope,
      id,
      ...(input === undefined ? {} : { input: value }),
      outcome,
      findings: recorded,
      ...(unjudgeable ? { unjudgeable } : {}),
    });
  }

  /** Writes `transcript.jsonl.gz` into `dir`: the header, the events, each test's record (scrubbed as the reports are). */
  async write(dir: string, header: CommandHeader, record: RunRecord): Promise<{ path: string; bytes: number; events: number }> {
    const tests = record.tests.map((t: TestRecord, i) => redactByValue(testLine(t, this.#seq + i + 1), this.secrets));
    const line: HeaderLine = redactByValue(
      {
        kind: 'header',
        format: TRANSCRIPT_FORMAT,
        test: '',
        time: new Date().toISOString(),
        seq: 0,
        w: 0,
        command: this.command,
        info: header.info,
        settings: header.settings,
        options: header.options,
        run: { startedAt: record.startedAt, durationMs: record.durationMs, unhandled: [...record.unhandled] },
        summary: header.summary,
      },
      this.secrets,
    );
    // By test in the record's order (the shared recording first), each test's record last.
    const order = new Map(record.tests.map((t, i) => [t.name, i]));
    const rank = (e: TranscriptEvent) => (e.test === '' ? -1 : (order.get(e.test) ?? Number.MAX_SAFE_INTEGER));
    const events = [...this.#events, ...tests].sort(
      (a, b) => rank(a) - rank(b) || Number(a.kind === 'test') - Number(b.kind === 'test') || a.seq - b.seq,
    );
    const path = join(dir, TRANSCRIPT_FILE);
    const bytes = await writeTranscriptFile(path, line, events);
    return { path, bytes, events: events.length };
  }
}

const createDigest = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
