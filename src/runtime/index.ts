export * from './run-context.ts';
export * from './events.ts';
export * from './harness.ts';
export * from './otp-source.ts';
export * from './pairing.ts';
export * from './scope.ts';
export { type LedgerHub, startLedgerHub } from './shared-ledger.ts';
export { type HarnessLoad, STALL_MS } from './stall-watch.ts';
export { linkTestFollowUps } from './defects.ts';
