export * from './run-context.ts';
export * from './events.ts';
export * from './harness.ts';
export * from './otp-source.ts';
export * from './pairing.ts';
export * from './scope.ts';
export { type LedgerHub, startLedgerHub } from './shared-ledger.ts';
