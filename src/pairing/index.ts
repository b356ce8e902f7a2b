export * from './pair-by-otp.ts';
export * from './unpair.ts';
