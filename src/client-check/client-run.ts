/**
 * What certify-client judges: the simulator's recording of one client (requests it made, webhook
 * deliveries it was sent), read from memory or from a `sim --record` file, and the settings of the
 * client profile (the assumptions about good client behaviour that the spec does not state).
 */
import { readFileSync } from 'node:fs';
import { ToolkitError } from '../core/index.ts';
import { operationFor } from '../generated/contract.ts';
import type { OperationEntry } from '../core/index.ts';
import type { RecordedDelivery, RecordedRequest, RecordedStart, SimRecordEntry } from '../simulator/index.ts';

/**
 * The client profile: assumptions about a well-behaved client. The spec and the public profile
 * publish no polling rate or busy back-off (public-profile.md: "rate limits: still unknown"), so each
 * value is a setting and a deviation is a warning (a failure under --strict).
 */
export interface ClientProfile {
  /** Polls of one transaction or operation at least this far apart (start to start), ms. */
  minPollIntervalMs: number;
  /** From this many polls of one resource on, the interval must grow (back-off)... */
  backoffAfterPolls: number;
  /** ...by this factor from the first interval to the last... */
  backoffFactor: number;
  /** ...unless the intervals are already at least this long, ms. */
  backoffCapMs: number;
  /** After a 409 (terminal busy) the same request waits at least this long, unless the client read a status meanwhile, ms. */
  busyRetryMinMs: number;
  /** A token may be renewed this long before it expires (ms), or in the last tenth of its lifetime. */
  renewMarginMs: number;
}

/** The defaults of the client profile. */
export const CLIENT_PROFILE_DEFAULTS: Readonly<ClientProfile> = {
  minPollIntervalMs: 200,
  backoffAfterPolls: 5,
  backoffFactor: 1.5,
  backoffCapMs: 2000,
  busyRetryMinMs: 500,
  renewMarginMs: 60_000,
};

/** One client's recording and what is known about its run. */
export interface ClientRun {
  requests: readonly RecordedRequest[];
  deliveries: readonly RecordedDelivery[];
  start?: RecordedStart;
  /** The integrator id the client was given (PAYCONNECT_INTEGRATOR_ID), when certify-client ran it. */
  integratorId?: string;
  /** When the client's command ended, ms on the recording's clock (certify-client only). */
  endedAt?: number;
  settings: ClientProfile;
}

/** Splits recording entries into requests and deliveries. */
export function clientRunOf(entries: readonly SimRecordEntry[], more: Omit<ClientRun, 'requests' | 'deliveries' | 'start'>): ClientRun {
  const requests = entries.filter((e): e is RecordedRequest => e.type === 'request').sort((a, b) => a.t - b.t || a.seq - b.seq);
  const deliveries = entries.filter((e): e is RecordedDelivery => e.type === 'delivery').sort((a, b) => a.t - b.t || a.seq - b.seq);
  const start = entries.find((e): e is RecordedStart => e.type === 'start');
  return { requests, deliveries, ...(start ? { start } : {}), ...more };
}

/**
 * Reads a `sim --record` file (JSON lines).
 * @throws ToolkitError PCC_USAGE when it cannot be read or a line is not a recording entry
 */
export function readRecordingFile(file: string): SimRecordEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ToolkitError(
      'PCC_USAGE',
      `--recording ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      'give the file that `sim --record FILE` wrote',
    );
  }
  const entries: SimRecordEntry[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      e = undefined;
    }
    const type = (e as { type?: unknown } | undefined)?.type;
    if (type !== 'start' && type !== 'request' && type !== 'delivery') {
      throw new ToolkitError(
        'PCC_USAGE',
        `--recording ${file}: line ${i + 1} is not a recording entry`,
        'give a file written by `sim --record FILE` (one JSON object per line)',
      );
    }
    entries.push(e as SimRecordEntry);
  });
  if (entries.length === 0)
    throw new ToolkitError(
      'PCC_USAGE',
      `--recording ${file} is empty`,
      'record a client first: sim --record FILE, then run the client against it',
    );
  return entries;
}

/** The contract's operation of a recorded request, when its method and path match one. */
export function operationOf(r: Pick<RecordedRequest, 'method' | 'path'>): OperationEntry | undefined {
  if (r.path === null) return undefined;
  return operationFor(r.method, r.path);
}

/** The first path parameter of a request (the transaction or operation id), when its path has one. */
export function resourceId(r: RecordedRequest, op = operationOf(r)): string | undefined {
  if (!op || !op.path.includes('{') || r.path === null) return undefined;
  const names = op.path.split('/');
  const parts = r.path.split('/');
  const i = names.findIndex((s) => s.startsWith('{'));
  return i >= 0 ? decodeURIComponent(parts[i] ?? '') : undefined;
}

/** A recorded request as an Exchange of the reports (already redacted by the simulator). */
export function toExchange(r: RecordedRequest, baseUrl = ''): Record<string, unknown> {
  const op = operationOf(r);
  return {
    seq: r.seq,
    ...(op ? { operationId: op.operationId } : {}),
    request: {
      method: r.method,
      url: `${baseUrl}${r.path ?? ''}${r.query ? `?${r.query}` : ''}`,
      path: r.path ?? '',
      headers: r.headers,
      ...(r.body !== undefined ? { body: r.body } : r.bodyText !== undefined ? { body: r.bodyText } : {}),
    },
    response: {
      status: r.status,
      headers: {},
      ...(r.response !== undefined ? { body: r.response, rawBody: JSON.stringify(r.response) } : {}),
    },
    startedAt: r.at,
    durationMs: r.durationMs,
  };
}

/** A recorded delivery as the reports' delivery view. */
export function toDeliveryView(d: RecordedDelivery): Record<string, unknown> {
  return {
    seq: d.seq,
    receivedAt: d.at,
    method: 'POST',
    url: d.url,
    event: d.event,
    ...(d.eventId ? { eventId: d.eventId } : {}),
    ...(d.answer !== null ? { status: d.answer } : {}),
    failedOnPurpose: d.forged,
    body: {
      event: d.event,
      transaction_id: d.transactionId,
      operation_id: d.operationId,
      status: d.status,
      attempt: d.attempt,
      forged: d.forged,
      ...(d.error ? { error: d.error } : {}),
    },
  };
}

/** A short reference to a request for a finding's message: `#7 GET /v1/.../status/ (+120 ms)`. */
export function ref(r: RecordedRequest): string {
  return `#${r.seq} ${r.method} ${r.path ?? '(no path)'} → ${r.status} at +${r.t} ms`;
}
