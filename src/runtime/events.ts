/**
 * What the runtime tells those who listen, as typed events: every exchange a test's scope recorded,
 * every webhook delivery judged for a test, every finding filed, every convergence timed. The
 * scenario helper keeps deliveries for the reports this way instead of wrapping harness methods.
 */
import type { Exchange, Finding } from '../core/index.ts';
import type { Delivery } from '../webhooks/index.ts';

/** A convergence duration, for the report. */
export interface ConvergenceTiming {
  kind: string;
  elapsedMs: number;
  timedOut: boolean;
}

/** The events, by name, with what each carries. `test` is the name of the test's scope. */
export interface RuntimeEventMap {
  exchange: { test: string; exchange: Exchange };
  /** A delivery judged by the webhook checks in the test's scope; `receiverUrl` resolves its path. */
  delivery: { test: string; pairing: string; receiverUrl: string; delivery: Delivery };
  finding: { test: string; finding: Finding };
  convergence: ConvergenceTiming;
}

type Listener<K extends keyof RuntimeEventMap> = (event: RuntimeEventMap[K]) => void;

/** A typed event channel; a listener that throws is a bug of the listener and propagates. */
export class RuntimeEvents {
  readonly #listeners = new Map<keyof RuntimeEventMap, Set<(event: never) => void>>();

  /** Subscribes; returns the unsubscribe function. */
  on<K extends keyof RuntimeEventMap>(kind: K, listener: Listener<K>): () => void {
    let set = this.#listeners.get(kind);
    if (!set) this.#listeners.set(kind, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<K extends keyof RuntimeEventMap>(kind: K, event: RuntimeEventMap[K]): void {
    for (const l of this.#listeners.get(kind) ?? []) (l as Listener<K>)(event);
  }
}
