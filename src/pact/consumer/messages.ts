/**
 * The webhook events of the pact, as asynchronous messages. Each status record the catalogue's
 * interactions answer as final has its message, about that very id (one per outcome: the transaction
 * of each amount, the preauthorizations, the refund, the increment), so that the Pact mock can post
 * them when it answers the request that creates the id (mock-front.ts). The event names no record of
 * the catalogue ends in get one message each about an id no interaction issues, so that every event
 * of sandbox.md is in the pact. The body is matched by the contract's event schemas and the
 * `Signature` header is carried as metadata, matched by its pattern. The example signature is the HMAC
 * of the example body under the fake example key: the pact holds no real signature.
 */
import { MatchersV3 } from '@pact-foundation/pact';
import { signBody } from '../../webhooks/index.ts';
import { OPERATION_STATUSES, TRANSACTION_STATUSES } from '../../profile/index.ts';
import { requestExample } from '../common/contract-examples.ts';
import { canonicalJson } from './matchers.ts';
import { EXAMPLE } from '../common/names.ts';
import { enumPattern, schemaToMatcher } from './schema-matcher.ts';
import { EXAMPLE_IDS, OUTCOMES, STATE, type StateName } from '../common/states.ts';

/** The `Signature` header's pattern (lowercase hex HMAC-SHA256). */
export const SIGNATURE_PATTERN = '^[0-9a-f]{64}$';

/** Ids of the messages about no record of the catalogue: no interaction issues them. */
export const EVENT_ONLY_IDS = Object.freeze({ transaction: 'tx_example_events', operation: 'op_example_events' });

/** One webhook message of the pact. */
export interface WebhookMessage {
  description: string;
  state: StateName;
  kind: 'transaction' | 'operation';
  /** The event name, e.g. `transaction.declined`. */
  event: string;
  /** The status the record carries. */
  status: string;
  /** The id the record is about: `transaction_id` of a transaction, `operation_id` of an operation. */
  id: string;
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

/** What a message is about: the record's id, its status, and the words its description ends with. */
interface About {
  kind: 'transaction' | 'operation';
  status: string;
  id: string;
  what: string;
}

function message({ kind, status, id, what }: About): WebhookMessage {
  const event = `${kind}.${status.toLowerCase()}`;
  const base = requestExample(kind === 'transaction' ? 'transactionEvent' : 'operationEvent');
  const eventId = `evt_${id}_${status.toLowerCase()}`;
  const data =
    kind === 'transaction'
      ? schemaToMatcher(
          'TransactionRecord',
          { ...(base.data as Record<string, unknown>), transaction_id: id, status },
          { include: ['transaction_id'], inject: { status: exact(status) } },
        )
      : schemaToMatcher(
          'OperationRecord',
          {
            ...(base.data as Record<string, unknown>),
            operation_id: id,
            operation_type: 'transaction.preauth.increment',
            transaction_id: EXAMPLE_IDS.preauth,
            status,
          },
          { inject: { status: exact(status) } },
        );
  const content = schemaToMatcher(
    kind === 'transaction' ? 'TransactionEvent' : 'OperationEvent',
    { ...base, event, event_id: eventId },
    { inject: { data, event: exact(event) } },
  );
  const signature = signBody(canonicalJson(MatchersV3.reify(content)), EXAMPLE.webhookKey);
  return {
    description: `${kind === 'operation' ? 'an' : 'a'} ${event} webhook about ${what}`,
    state: STATE.webhooks,
    kind,
    event,
    status,
    id,
    pending: status === 'INITIATED',
    content,
    metadata: { Signature: MatchersV3.regex(SIGNATURE_PATTERN, signature) },
  };
}

/** The final records of the catalogue's status interactions, by id. */
function finalRecords(): About[] {
  return [
    ...OUTCOMES.map((o): About => ({ kind: 'transaction', status: o.final, id: o.exampleId, what: o.state })),
    { kind: 'transaction', status: 'SUCCESS', id: EXAMPLE_IDS.preauth, what: STATE.preauth },
    { kind: 'transaction', status: 'DECLINED', id: EXAMPLE_IDS.preauthDeclined, what: STATE.preauthDeclined },
    { kind: 'transaction', status: 'SUCCESS', id: EXAMPLE_IDS.refund, what: STATE.refund },
    { kind: 'operation', status: 'SUCCESS', id: EXAMPLE_IDS.increment, what: STATE.operation },
  ];
}

/** Every webhook message of the pact, in a stable order. */
export function webhookMessages(): WebhookMessage[] {
  const records = finalRecords();
  const covered = new Set(records.map((r) => `${r.kind}.${r.status}`));
  const eventOnly = (kind: About['kind'], statuses: readonly string[]): About[] =>
    statuses
      .filter((s) => !covered.has(`${kind}.${s}`))
      .map((status) => ({
        kind,
        status,
        id: EVENT_ONLY_IDS[kind],
        what: `${kind === 'operation' ? 'an operation' : 'a transaction'} of no interaction`,
      }));
  return [...records, ...eventOnly('transaction', TRANSACTION_STATUSES), ...eventOnly('operation', OPERATION_STATUSES)].map(message);
}

/** The messages about `id`, as the service posts them: the example body (sorted keys) and its signature under `key`. */
export function postedMessages(
  messages: readonly WebhookMessage[],
  id: string,
  key: string,
): { event: string; body: string; signature: string }[] {
  return messages
    .filter((m) => m.id === id)
    .map((m) => {
      const body = canonicalJson(MatchersV3.reify(m.content));
      return { event: m.event, body, signature: signBody(body, key) };
    });
}
