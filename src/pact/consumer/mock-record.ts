/**
 * What a Pact mock server has recorded of the requests it answered, read the way pact-js judges a
 * session, and the wait for that record to be whole.
 *
 * Why the wait: the mock server of the Pact core this toolkit installs (pact_mock_server 2.2.1, inside
 * the pact_ffi 0.5.4 that @pact-foundation/pact-core 19 loads) answers a request first and records that
 * it matched afterwards, on a task of its own (hyper_server.rs sends a `RequestMatch` event; the mock's
 * event loop pushes it onto its list of matches). pact-js reads that list the moment a session's
 * function returns (`executeTest`: `mockServerMismatches`, then `mockServerMatchedSuccessfully`). A
 * session that ends straight after an answer can therefore be told its last request was "expected but
 * not received", the more often the busier the machine: with two or three runs at once on two cores,
 * the core's thread that records is preempted by the Node thread its answer woke. pact_mock_server 2.2.4
 * records before it answers (its commit 819ac3d, "record match results synchronously"); the pact-core
 * releases that load it (pact_ffi 0.5.5 and later, pact-core 20.1 on) need Node 22, and we run on 20.
 *
 * So a session that exercises interactions waits, before it returns, until the mock's record lists
 * every interaction as received: the condition pact-js checks, read until it holds. Nothing is sent
 * again; a request that truly matched nothing is still missing when the wait ends, and fails the
 * session as before.
 */
import { makeConsumerPact } from '@pact-foundation/pact-core';
import { CONSUMER, PROVIDER } from '../common/names.ts';

/** A request the mock declares and has not (yet) recorded: its method (upper case) and path. */
export interface MissingRequest {
  method: string;
  path: string;
}

/** Reads what a mock still misses; undefined when it cannot say. */
export type MissingReader = () => MissingRequest[] | undefined;

/**
 * How long a session waits for its mock to record what it answered. The core records within
 * milliseconds even on a loaded machine; the wait runs this long only when a request truly matched
 * nothing (the session fails then, as it would have), so it bounds that case, not the normal one.
 */
export const RECORD_WAIT_MS = 10_000;

/** The requests the mock at `port` still misses (method and path), or undefined when it cannot say. */
export function missingRequests(port: number): MissingRequest[] | undefined {
  try {
    return makeConsumerPact(CONSUMER, PROVIDER)
      .mockServerMismatches(port)
      .filter((m): m is Extract<typeof m, { type: 'missing-request' }> => 'type' in m && m.type === 'missing-request')
      .map((m) => ({ method: m.method.toUpperCase(), path: m.path }));
  } catch {
    return undefined;
  }
}

/**
 * Waits until `read` says nothing is missing, it cannot say, or `waitMs` passed; returns what it said
 * last. Reads often at first (the record is usually a millisecond behind), then every 100 ms.
 */
export async function untilRecorded(read: MissingReader, waitMs = RECORD_WAIT_MS): Promise<MissingRequest[] | undefined> {
  const deadline = Date.now() + waitMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, 100)) {
    const missing = read();
    if (missing === undefined || missing.length === 0 || Date.now() >= deadline) return missing;
    await new Promise((r) => setTimeout(r, pause));
  }
}

/** {@link untilRecorded} for the Pact mock server on `port`: a session's last step before it returns. */
export function mockRecorded(port: number, waitMs = RECORD_WAIT_MS): Promise<MissingRequest[] | undefined> {
  return untilRecorded(() => missingRequests(port), waitMs);
}
