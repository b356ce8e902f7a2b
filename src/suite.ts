/**
 * The suite runtime's entry point (`payconnect-conformance/suite`): what a conformance suite imports
 * to declare scenarios, the built-in ones and an integrator's own. It runs inside vitest's workers;
 * the run's API is the package's main entry (src/index.ts).
 */
export { scenario, type ScenarioContext, type ScenarioInfo } from './suite/scenario.ts';
export { suiteTest, type SuiteWorker, type SessionState } from './suite/fixtures.ts';
export { NOT_MANUAL, type ScenarioNeeds, type TerminalNeed } from './suite/needs.ts';
export { SCENARIO_META_KEY, type ScenarioDeclaration } from './suite/scenario-declaration.ts';
export { OperatorAbort, OperatorRedo } from './suite/operator-signals.ts';
export { workerContext, type WorkerContext } from './suite/worker-context.ts';
export { ScenarioBlocked, Scope, type Harness, type Pairing } from './runtime/index.ts';
export { RUNS_IN_RESERVE, TimeBox, type TimeBoxHost } from './suite/time-box.ts';
export { postSimControl, type ControlAnswer } from './suite/sim-control.ts';
