/** One status seen on one channel (the core type, under the name this folder exported first). */
export type { StatusSighting as StatusSightingLike } from '../core/index.ts';
