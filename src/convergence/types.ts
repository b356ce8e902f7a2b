/** One status seen on one channel, `atMs` after the observation began. */
export interface StatusSightingLike {
  status: string;
  channel: 'poll' | 'webhook';
  atMs: number;
}
