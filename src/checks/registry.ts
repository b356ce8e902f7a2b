/**
 * The registry of checks by stable id, and the one place where a check is run: it turns the outcome
 * into findings with severity, and a check that throws into a `check.crashed` finding.
 */
import type { Exchange, Finding } from '../core/index.ts';
import { severityFor } from '../core/index.ts';
import { operationFor } from '../generated/contract.ts';
import type { Check, CheckContext, CheckOutcome } from './check.ts';
import * as flow from './flow-checks.ts';
import { waitedOut } from './guards.ts';
import * as invariants from './invariants.ts';
import * as model from './model-checks.ts';
import * as observations from './observations.ts';
import * as pairing from './pairing-checks.ts';
import * as probes from './probes.ts';
import { quoteOf } from './rule.ts';
import * as response from './response-checks.ts';
import * as service from './service-checks.ts';
import * as webhook from './webhook-checks.ts';

const isCheck = (v: unknown): v is Check<never> =>
  typeof v === 'object' && v !== null && typeof (v as Check).id === 'string' && typeof (v as Check).run === 'function';

const all: Check<never>[] = [response, invariants, probes, observations, pairing, flow, webhook, model, service].flatMap((m) =>
  Object.values(m).filter(isCheck),
);
const duplicate = all.find((c, i) => all.findIndex((d) => d.id === c.id) !== i);
if (duplicate) throw new Error(`check id ${duplicate.id} is registered twice`);

type Exported<M> = M[keyof M];
/** Every registered check, each with its literal id and input type. */
type Registered = Extract<
  | Exported<typeof response>
  | Exported<typeof invariants>
  | Exported<typeof probes>
  | Exported<typeof observations>
  | Exported<typeof pairing>
  | Exported<typeof flow>
  | Exported<typeof webhook>
  | Exported<typeof model>
  | Exported<typeof service>,
  Check<never, string>
>;
/** The id of a registered check. */
export type CheckId = Registered['id'];
/** The input the check `K` takes. */
export type CheckInput<K extends CheckId> = Extract<Registered, { id: K }> extends Check<infer I, K> ? I : never;

/** Every registered check by id. */
export const CHECKS: ReadonlyMap<string, Check<never>> = new Map(all.map((c) => [c.id, c]));

/** The check registered under `id`; throws on an unknown id (a bug of the toolkit). */
export function getCheck<I>(id: string): Check<I> {
  const c = CHECKS.get(id);
  if (!c) throw new Error(`unknown check id ${id}`);
  return c as unknown as Check<I>;
}

/** Checks that run on every exchange. */
export const AUTO_CHECKS: readonly Check<Exchange>[] = all.filter((c) => c.auto) as unknown as Check<Exchange>[];

/** The result of running one check: its outcome and the findings it produced. */
export interface CheckRun {
  check: string;
  outcome: CheckOutcome['kind'];
  reason?: string;
  findings: Finding[];
}

/** Runs a check; never throws. */
export function runCheck<I>(check: Check<I>, input: I, ctx: CheckContext): CheckRun {
  try {
    const outcome = check.run(input, ctx);
    if (outcome.kind !== 'fail')
      return { check: check.id, outcome: outcome.kind, reason: outcome.kind === 'skip' ? outcome.reason : undefined, findings: [] };
    return {
      check: check.id,
      outcome: 'fail',
      findings: outcome.findings.map((d) => ({
        check: check.id,
        severity: severityFor(d.source ?? check.source, ctx.strict),
        clause: d.clause ?? check.clause,
        quote: d.quote ?? quoteOf(check.id),
        message: d.message,
        evidence: d.evidence,
      })),
    };
  } catch (e) {
    return {
      check: check.id,
      outcome: 'fail',
      findings: [
        {
          check: 'check.crashed',
          severity: 'failure',
          clause: check.clause,
          message: `check ${check.id} crashed: ${(e as Error).message}`,
          evidence: { stack: (e as Error).stack },
        },
      ],
    };
  }
}

/** The contract's entry for a request, by method and concrete path (generated with the contract). */
export { operationFor };

/** Why no automatic check judges an answer that asked to wait and was waited out. */
export const WAITED_OUT =
  "the service asked to wait (Retry-After) and the client did, then sent the request again: the re-send's answer is judged";

/**
 * Runs every automatic check on an exchange. An answer that asked the client to wait, which it did
 * (a 429 or 503 with Retry-After, then a re-send), is no answer to judge: every check skips it.
 */
export function runAutoChecks(ex: Exchange, ctx: Omit<CheckContext, 'operation'>): CheckRun[] {
  if (waitedOut(ex)) return AUTO_CHECKS.map((c) => ({ check: c.id, outcome: 'skip', reason: WAITED_OUT, findings: [] }));
  const operation = operationFor(ex.request.method, ex.request.path);
  return AUTO_CHECKS.map((c) => runCheck(c, ex, { ...ctx, operation }));
}
