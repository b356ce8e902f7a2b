/**
 * The embedded Pay-Connect sandbox: a loopback HTTP (or, with `tls`, HTTPS) service that implements the spec, the public
 * profile and sandbox.md, with a virtual terminal and fault switches. Imports src/core, src/generated and its
 * settings' table, config/sim-settings.ts (never the harness's checks, client, convergence or profile).
 */
export { startSimulator, SIM_INTEGRATOR_ID, type SimulatorHandle } from './simulator.ts';
export { FAULTS, assertFaultIds, faultFix, isFaultId, type FaultId, type FaultInfo, type FaultKind } from './faults.ts';
export { SIMULATOR_DEFAULTS, type SimulatorOptions, type TerminalMode, type TerminalView, type WaitingTransaction } from './options.ts';
export { CONTROL_PATH, TERMINAL_ACTIONS, type ActionResult, type TerminalAction, type TerminalsAnswer } from './control.ts';
export { serveSimulator, type SimCommandIo, type SimInput, type SimServeOptions } from './serve-simulator.ts';
export {
  jsonLinesSink,
  REDACTED,
  type SimRecordEntry,
  type RecordedRequest,
  type RecordedDelivery,
  type RecordedStart,
} from './recording.ts';
export type { ForgedOutcome } from './webhooks.ts';
