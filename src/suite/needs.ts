/**
 * What a scenario needs of the run, declared with the scenario (not checked in its body), so the
 * engine knows before anything runs which tests a run will skip and why (collect-tests.ts).
 */
import type { RunContext } from '../runtime/index.ts';

/** A scenario's requirements, each with the reason shown when the run cannot meet it. */
export interface ScenarioNeeds {
  /**
   * The service keeps state between requests (a sequence of states, timing, a second pairing):
   * not the Pact mock, which gives one fixed answer per request. The value says why.
   */
  stateful?: string;
  /**
   * The terminal modes the scenario runs in; in another mode it is skipped with `why`. Several:
   * each must hold, the first that does not gives the reason.
   */
  terminal?: TerminalNeed | readonly TerminalNeed[];
  /** The run's profile is sandbox.md's (a sandbox target); else skipped with this reason. */
  sandboxProfile?: string;
  /** OTPs are minted as sandbox.md allows (fresh pairings at will); else skipped with this reason. */
  mintedOtps?: string;
}

/** Terminal modes a scenario runs in, and why it cannot run in the others. */
export interface TerminalNeed {
  modes: readonly RunContext['terminal'][];
  /** The skip reason; `{terminal}` in it is replaced by the run's mode. */
  why: string;
}

/** What of the run the needs depend on. */
export type NeedsContext = Pick<RunContext, 'targetKind' | 'terminal' | 'profile' | 'mintOtps'>;

/** Why a run cannot meet `needs` (the first unmet need's reason), or undefined when it can. */
export function unmetNeed(needs: ScenarioNeeds | undefined, ctx: NeedsContext): string | undefined {
  if (!needs) return undefined;
  if (needs.stateful !== undefined && ctx.targetKind === 'pact') return `not against the Pact mock: ${needs.stateful}`;
  const terminal: readonly TerminalNeed[] =
    needs.terminal === undefined ? [] : 'modes' in needs.terminal ? [needs.terminal] : needs.terminal;
  const wrongMode = terminal.find((n) => !n.modes.includes(ctx.terminal));
  if (wrongMode) return wrongMode.why.replaceAll('{terminal}', ctx.terminal);
  if (needs.sandboxProfile !== undefined && ctx.profile !== 'sandbox') return needs.sandboxProfile;
  if (needs.mintedOtps !== undefined && !ctx.mintOtps) return needs.mintedOtps;
  return undefined;
}

/** The reason of the manual-mode exclusion most flow scenarios share (timing no operator can follow). */
export const NOT_MANUAL: TerminalNeed = {
  modes: ['auto', 'observe'],
  why: 'this scenario is written for --terminal auto and observe (it depends on timing no operator can follow)',
};
