/**
 * The webhook events of the pact, as asynchronous messages: one per event name of sandbox.md (every
 * status change of a transaction or an operation), the body matched by the contract's event schemas
 * and the `Signature` header carried as metadata, matched by its pattern. The example signature is
 * the HMAC of the example body under the fake example key: the pact holds no real signature.
 */
import { MatchersV3 } from '@pact-foundation/pact';
import { signBody } from '../../webhooks/index.ts';
import { OPERATION_STATUSES, TRANSACTION_STATUSES } from '../../profile/index.ts';
import { requestExample } from '../contract-examples.ts';
import { canonicalJson } from './matchers.ts';
import { EXAMPLE } from '../names.ts';
import { enumPattern, schemaToMatcher } from '../schema-matcher.ts';
import { EXAMPLE_IDS, STATE, type StateName } from '../states.ts';

/** The `Signature` header's pattern (lowercase hex HMAC-SHA256). */
export const SIGNATURE_PATTERN = '^[0-9a-f]{64}$';

/** One webhook message of the pact. */
export interface WebhookMessage {
  description: string;
  state: StateName;
  kind: 'transaction' | 'operation';
  /** The event name, e.g. `transaction.declined`. */
  event: string;
  /** The status the record carries. */
  status: string;
  /**
   * A sandbox may post the creation itself (sandbox.md): the consumer does not rely on it, so the
   * message is pending (its verification failing does not fail the provider).
   */
  pending: boolean;
  /** Matcher tree of the body. */
  content: Record<string, unknown>;
  /** Matcher tree of the metadata. */
  metadata: Record<string, unknown>;
}


const exact = (value: string) => MatchersV3.regex(enumPattern([value]), value);

function message(kind: 'transaction' | 'operation', status: string): WebhookMessage {
  const event = `${kind}.${status.toLowerCase()}`;
  const base = requestExample(kind === 'transaction' ? 'transactionEvent' : 'operationEvent');
  const eventId = `evt_example_${kind === 'transaction' ? 'tx' : 'op'}_${status.toLowerCase()}`;
  const data = kind === 'transaction'
    ? schemaToMatcher('TransactionRecord', { ...(base.data as Record<string, unknown>), transaction_id: 'tx_example_success', status }, { include: ['transaction_id'], inject: { status: exact(status) } })
    : schemaToMatcher('OperationRecord', {
      ...(base.data as Record<string, unknown>), operation_id: EXAMPLE_IDS.increment, operation_type: 'transaction.preauth.increment', transaction_id: EXAMPLE_IDS.preauth, status,
    }, { inject: { status: exact(status) } });
  const content = schemaToMatcher(kind === 'transaction' ? 'TransactionEvent' : 'OperationEvent', { ...base, event, event_id: eventId }, { inject: { data, event: exact(event) } });
  const signature = signBody(canonicalJson(MatchersV3.reify(content)), EXAMPLE.webhookKey);
  return {
    description: `${kind === 'operation' ? 'an' : 'a'} ${event} webhook`,
    state: STATE.webhooks,
    kind,
    event,
    status,
    pending: status === 'INITIATED',
    content,
    metadata: { Signature: MatchersV3.regex(SIGNATURE_PATTERN, signature) },
  };
}

/** Every webhook message of the pact, in a stable order. */
export function webhookMessages(): WebhookMessage[] {
  return [
    ...TRANSACTION_STATUSES.map((s) => message('transaction', s)),
    ...OPERATION_STATUSES.map((s) => message('operation', s)),
  ];
}
