export * from './driver.ts';
