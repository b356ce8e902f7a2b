/**
 * The service's terminal step as a worker's convergences saw it, for the settle window of one that
 * saw none of its own (convergence/observe.ts stepElsewhere): a transaction final at the first poll
 * (a cancel without webhooks), or one the deadline ended (sandbox.md: "each step after a short delay
 * of the sandbox's choosing"; "A transaction left waiting reaches `EXPIRED` at the sandbox's
 * deadline"). Against `sim --step-delay 100` such a wait watched its final status a whole second,
 * where the steps the worker saw make it 200 ms.
 *
 * The slowest of the quickest steps seen: a convergence's quickest step may be a cancel's (a few
 * milliseconds) or a step seen late under load, and the window should cover a step of the service as
 * it goes, not its quickest ever; one slow sighting only brings the window back to its ceiling.
 */
export class ServiceSteps {
  #slowest: number | undefined;

  /** One convergence's quickest step (convergence/observe.ts serviceStep); undefined: it saw none. */
  saw(stepMs: number | undefined): void {
    if (stepMs !== undefined && stepMs > 0 && (this.#slowest === undefined || stepMs > this.#slowest)) this.#slowest = stepMs;
  }

  /** The step to scale a settle window to, ms; undefined until a convergence saw one. */
  get stepMs(): number | undefined {
    return this.#slowest;
  }
}

/** Statuses a service reaches at its deadline rather than after a step (sandbox.md, quoted above). */
export const REACHED_AT_DEADLINE: readonly string[] = Object.freeze(['EXPIRED']);
