/**
 * What a scenario declares about itself, kept in its test meta at declaration so that the engine
 * reads it by collecting the suites (nothing runs): the capability and clause, and what it needs of
 * the run. The typed task meta keys of the suite runtime are declared here too.
 */
import type { Outcome } from '../terminal/index.ts';
import type { TestMeta } from '../core/index.ts';
import type { ScenarioNeeds } from './needs.ts';

/** The test-meta key of a scenario's declaration. */
export const SCENARIO_META_KEY = 'pcc_scenario';

/** A scenario's declaration as it rides in the test meta. */
export interface ScenarioDeclaration {
  capability: string;
  clause: string;
  /** Absent: the scenario needs nothing a run might lack (or finds out while it runs). */
  needs?: ScenarioNeeds;
}

declare module 'vitest' {
  interface TaskMeta {
    /** What the test saw, for the reports (META_KEY). */
    payconnect?: TestMeta;
    /** The operator steps a scenario declares (OPERATOR_META_KEY). */
    pcc_operator?: Outcome[];
    /** The scenario's declaration (SCENARIO_META_KEY). */
    pcc_scenario?: ScenarioDeclaration;
  }
}
