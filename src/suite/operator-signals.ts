/** What the operator's answer at a manual step does to the scenario (thrown by the step, read by the runtime). */

/** The operator asked to do the step again: the attempt is set aside and the scenario starts over. */
export class OperatorRedo extends Error {}

/** The operator stopped the session: this test and every later one are skipped; `--resume` goes on. */
export class OperatorAbort extends Error {}
