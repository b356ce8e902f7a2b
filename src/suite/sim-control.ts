/**
 * A POST to a simulator's control surface (`/_sim/...`), as a suite makes it on the embedded
 * simulator only: the terminal clock's skips (suites/_setup/steps/clock.ts). Over undici's
 * dispatcher, which the worker has loaded for the client already, not the global `fetch`: that is
 * Node's own copy of undici, loaded and compiled once more in every worker that calls it, with
 * streams that cost several times a `request` per call (0.3-0.4 s of CPU profiled in each worker of
 * the model's parts, a default run spending 12-14 CPU-s in all).
 */
import { Agent, requestWith } from '../core/undici.ts';

/** The worker's connections to the simulator, kept between calls (undici lets an idle one go before the server does). */
let agent: InstanceType<typeof Agent> | undefined;

/** What the control surface answered: its status and JSON body (`{}` when it has none). */
export interface ControlAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * POSTs `body` as JSON to `url` and reads the answer. Rejects on a network error or after
 * `timeoutMs`; an answer of any status resolves.
 */
export async function postSimControl(url: string, body: unknown, timeoutMs: number): Promise<ControlAnswer> {
  agent ??= new Agent();
  const res = await requestWith(agent, url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const parsed: unknown = await res.body.json().catch(() => ({}));
  return {
    status: res.statusCode,
    body: parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {},
  };
}
