/** One HTTP request and its response, as recorded by the client's recorder (already redacted). */
export interface Exchange {
  /** Monotonic sequence number within a run. */
  seq: number;
  /** The contract's operationId, when the path matched one. */
  operationId?: string;
  request: {
    method: string;
    url: string;
    path: string;
    headers: Record<string, string>;
    body?: unknown;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    /** Parsed JSON when the body parsed, else the raw text. */
    body?: unknown;
    rawBody?: string;
  };
  /** Network or timeout error, when there was no response. */
  error?: { code: string; message: string };
  startedAt: string;
  durationMs: number;
}
