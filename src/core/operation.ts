import type { RuleSource } from './finding.ts';

/** A documented response of an operation: where it is documented and the schema of its JSON body. */
export interface ResponseEntry {
  source: RuleSource;
  /** Component schema name of the JSON body, or null when the response has no body. */
  schema: string | null;
}

/** One operation of the contract, as the generated table describes it. */
export interface OperationEntry {
  operationId: string;
  method: string;
  /** Path template, e.g. `/v1/pay-connect/transactions/{transaction_id}/status/`. */
  path: string;
  /** Regex source matching concrete paths (each parameter is one non-empty segment). */
  pattern: string;
  source: RuleSource;
  /** Needs `Authorization: Bearer`. */
  bearer: boolean;
  /** Needs `X-Pay-Connect-Integrator-Id`. */
  integratorHeader: boolean;
  /** Request body schema name, or null. */
  requestSchema: string | null;
  /** Starts or changes a transaction: never retried automatically. */
  stateChanging: boolean;
  /** By status code. */
  responses: Record<string, ResponseEntry>;
}

/** One webhook event kind of the contract. */
export interface WebhookEntry {
  name: string;
  operationId: string;
  source: RuleSource;
  schema: string;
}
