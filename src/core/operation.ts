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

/**
 * The section of the spec documents that defines each response and webhook schema: what a body's
 * schema errors are filed under, and what an answer judged against the schema exercises (coverage).
 */
export const SCHEMA_CLAUSES: Readonly<Record<string, string>> = {
  PrintSlip: 'spec#transaction-print-slip',
  PairingResult: 'spec#pairing-result',
  TokenResult: 'spec#token-result',
  Configuration: 'spec#configuration',
  OperationReference: 'spec#operation-reference-result-of-preauthorization-operations',
  TransactionCreated: 'spec#post-v1pay-connecttransactionsgenerate',
  CancelAccepted: 'spec#post-v1pay-connecttransactionstransaction_idcancel',
  TransactionRecord: 'profile#endpoints-the-spec-refers-to-but-does-not-show',
  OperationRecord: 'profile#endpoints-the-spec-refers-to-but-does-not-show',
  Error: 'sandbox#errors',
  TransactionEvent: 'sandbox#webhooks',
  OperationEvent: 'sandbox#webhooks',
};
