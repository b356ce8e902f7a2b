/**
 * The worker's side of the transcript: events are kept in memory as they happen and written, redacted
 * and capped, to the worker's own file in the run's staging folder when a test ends (one append per
 * test, asynchronous). The engine assembles the files into `transcript.jsonl.gz` after the suites.
 * Imports core only: the runtime records through it.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CheckEvent, type Disposition, type RecordedFinding, type TranscriptEvent, capString, capValue, sha256 } from './format.ts';

/** An event before the recorder stamps it (time, sequence, worker). */
type Draft = TranscriptEvent extends infer E ? (E extends TranscriptEvent ? Omit<E, 'time' | 'seq' | 'w'> : never) : never;

/** What a recorder needs of a finding to record it. */
export interface FindingLike {
  check: string;
  severity: RecordedFinding['severity'];
  clause: string;
  message: string;
}

/** A delivery as the receiver keeps it (the fields the transcript records). */
export interface DeliveryLike {
  seq: number;
  receivedAtIso: string;
  method: string;
  path: string;
  headers: Readonly<Record<string, string>>;
  rawBody: string;
  event: string | undefined;
  eventId: string | undefined;
  signature: string;
  status: number;
  duplicate: boolean;
  failedOnPurpose: boolean;
}

export class TranscriptRecorder {
  #seq = 0;
  #scopes = 0;
  #pending: TranscriptEvent[] = [];
  #writing: Promise<void> = Promise.resolve();
  /** The event that recorded an exchange or observation object, so a check on it refers to it. */
  readonly #recorded = new WeakMap<object, number>();
  readonly file: string;

  /**
   * @param dir the run's staging folder (RunContext.transcriptDir)
   * @param worker the worker's number (VITEST_POOL_ID)
   * @param redact the worker's redactor: applied to every event when it is written
   */
  constructor(
    dir: string,
    readonly worker: number,
    private readonly redact: <T>(v: T) => T,
  ) {
    this.file = join(dir, `w${worker}-${process.pid}.jsonl`);
  }

  /** A new scope's number (unique in this worker). */
  nextScope(): number {
    return ++this.#scopes;
  }

  /** Records an event; returns its sequence number. `source`: the object it records, for {@link refOf}. */
  add(draft: Draft, source?: object): number {
    const seq = ++this.#seq;
    // What orders the run's transcript first (assemble.ts reads just that much of each line).
    const { kind, test, ...rest } = draft;
    this.#pending.push({ kind, test, seq, w: this.worker, ...rest, time: new Date().toISOString() } as TranscriptEvent);
    if (source) this.#recorded.set(source, seq);
    return seq;
  }

  /** The event that recorded `input`, when it is an object recorded already. */
  refOf(input: unknown): number | undefined {
    return typeof input === 'object' && input !== null ? this.#recorded.get(input) : undefined;
  }

  /** A check invocation; its input by reference when an event holds it already. */
  check(
    test: string,
    scope: number,
    id: string,
    input: unknown,
    outcome: string,
    findings: RecordedFinding[],
    extra?: Record<string, unknown>,
  ): void {
    const ref = this.refOf(input);
    this.add({
      kind: 'check',
      test,
      scope,
      id,
      ...(ref === undefined ? { input } : { inputRef: ref }),
      ...(extra ? { extra } : {}),
      outcome,
      findings,
    });
  }

  delivery(test: string, pairing: string, d: DeliveryLike): void {
    const delivery = {
      seq: d.seq,
      receivedAt: d.receivedAtIso,
      method: d.method,
      path: d.path,
      headers: { ...d.headers },
      event: d.event,
      eventId: d.eventId,
      signature: d.signature,
      status: d.status,
      duplicate: d.duplicate,
      failedOnPurpose: d.failedOnPurpose,
      bodySha256: sha256(d.rawBody),
      bodyLength: d.rawBody.length,
      rawBody: d.rawBody,
    };
    this.add({ kind: 'delivery', test, pairing, delivery });
  }

  /** Writes what was recorded since the last flush (redacted, capped) to the worker's file. */
  flush(): Promise<void> {
    const batch = this.#pending;
    if (batch.length === 0) return this.#writing;
    this.#pending = [];
    const text = batch.map((e) => `${JSON.stringify(this.finish(e))}\n`).join('');
    this.#writing = this.#writing.then(() => appendFile(this.file, text));
    return this.#writing;
  }

  /** An event as written: redacted, each body within the cap, and a check's input marked when either changed it. */
  private finish(e: TranscriptEvent): TranscriptEvent {
    if (e.kind === 'delivery') {
      const out = this.redact(e);
      return { ...out, delivery: { ...out.delivery, rawBody: capString(out.delivery.rawBody as string) } };
    }
    const redacted = this.redact(e);
    if (e.kind === 'check' && e.input !== undefined) {
      const c = redacted as CheckEvent;
      const { value, capped } = capValue(c.input);
      const why = capped
        ? "its input was over the transcript's cap"
        : JSON.stringify(c.input) !== JSON.stringify(e.input)
          ? 'its input held secrets (redacted in the transcript)'
          : undefined;
      return { ...c, input: value, ...(why ? { unjudgeable: why } : {}) };
    }
    if (redacted.kind === 'exchange') {
      const { value, capped } = capValue(redacted.exchange);
      return capped ? { ...redacted, exchange: value as typeof redacted.exchange, capped: true } : redacted;
    }
    return redacted;
  }
}

/** A finding's record with how it was filed. */
export const recordedFinding = (f: FindingLike, disposition: Disposition): RecordedFinding => ({
  check: f.check,
  severity: f.severity,
  clause: f.clause,
  message: f.message,
  disposition,
});
