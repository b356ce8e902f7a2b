export * from './statement.ts';
export * from './dsse.ts';
export * from './keys.ts';
export * from './sign.ts';
export * from './verify.ts';
