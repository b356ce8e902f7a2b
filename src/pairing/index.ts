export * from './pair-by-otp.ts';
