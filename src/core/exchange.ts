/** One HTTP request and its response, as recorded by the client's recorder (already redacted). */
export interface Exchange {
  /** Monotonic sequence number within a run. */
  seq: number;
  /** The contract's operationId, when the path matched one. */
  operationId?: string;
  request: {
    method: string;
    /** As sent. */
    url: string;
    /** The API's path: under the path a target mounts the API under (a gateway's prefix taken off), no query. */
    path: string;
    headers: Record<string, string>;
    body?: unknown;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    /** The parsed JSON body; undefined when the body is empty or not JSON. */
    body?: unknown;
    /** The exact body text as received. */
    rawBody?: string;
  };
  /** Network or timeout error, when there was no response. */
  error?: { code: string; message: string };
  startedAt: string;
  durationMs: number;
}
