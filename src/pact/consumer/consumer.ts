/**
 * The consumer side of the pact: the toolkit's client driven against a Pact mock, and its webhook
 * receiver handed each message. Used by the consumer suite (one mock per interaction) and by the pact
 * target (one mock for all of them).
 */
import { MatchersV3 } from '@pact-foundation/pact';
import { REQUEST_TIMEOUT_MS, createPayConnectClient } from '../../client/index.ts';
import { ToolkitError } from '../../core/index.ts';
import { operationWithId, validators } from '../../generated/contract.ts';
import { startWebhookReceiver } from '../../webhooks/index.ts';
import type { ReceivedMessage } from './declare.ts';
import type { HttpInteraction } from './interactions.ts';
import { canonicalJson } from './matchers.ts';
import type { WebhookMessage } from './messages.ts';
import { EXAMPLE } from '../common/names.ts';

function expectedStatus(i: HttpInteraction): number {
  return typeof i.status === 'number' ? i.status : Number(MatchersV3.reify(i.status));
}

/**
 * Makes the interaction's request with the toolkit's client against `baseUrl` (a Pact mock), and
 * checks the answer is what the interaction promises and what the contract documents.
 */
export async function driveInteraction(i: HttpInteraction, baseUrl: string): Promise<void> {
  const client = createPayConnectClient({
    baseUrl,
    integratorId: EXAMPLE.integratorId,
    tokenSource: async () => ({ access_token: EXAMPLE.accessToken, expires_in: '3600' }),
    timeoutMs: REQUEST_TIMEOUT_MS,
  });
  try {
    const res = await i.drive({ client });
    const want = expectedStatus(i);
    if (res.status !== want) {
      throw new ToolkitError(
        'PCC_PACT',
        `${i.description}: the mock answered ${res.status}, the interaction says ${want}: ${JSON.stringify(res.body)?.slice(0, 300)}`,
      );
    }
    const schema = operationWithId(i.operationId)?.responses[String(want)]?.schema;
    if (schema && !validators[schema]!(res.body)) {
      throw new ToolkitError(
        'PCC_PACT',
        `${i.description}: the answer does not match ${schema}: ${JSON.stringify(validators[schema]!.errors)}`,
      );
    }
  } finally {
    await client.close();
  }
}

/**
 * The consumer of a webhook message: the toolkit's webhook receiver, keyed with the fake example key,
 * is posted the message body (sorted keys, as the sandbox sends it) with its `Signature`; it must
 * accept it as validly signed, and the body must match the contract's event schema.
 */
export async function consumeWebhookMessage(m: WebhookMessage, message: ReceivedMessage): Promise<void> {
  const content = message.contents.content;
  const signature = String(message.metadata?.Signature ?? '');
  const rx = await startWebhookReceiver({ secret: EXAMPLE.webhookKey });
  try {
    const res = await fetch(rx.loopbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', signature },
      body: canonicalJson(content),
    });
    await res.arrayBuffer();
    const [d] = rx.deliveries();
    if (res.status !== 200 || d?.signature !== 'valid') {
      throw new ToolkitError(
        'PCC_PACT',
        `${m.description}: the receiver answered ${res.status} (signature ${d?.signature ?? 'not recorded'})`,
      );
    }
    if (d.event !== m.event) throw new ToolkitError('PCC_PACT', `${m.description}: the receiver read event ${String(d.event)}`);
    const schema = m.kind === 'transaction' ? 'TransactionEvent' : 'OperationEvent';
    if (!validators[schema]!(d.body)) {
      throw new ToolkitError(
        'PCC_PACT',
        `${m.description}: the body does not match ${schema}: ${JSON.stringify(validators[schema]!.errors)}`,
      );
    }
    const data = (d.body as { data: Record<string, unknown> }).data;
    const id = String(m.kind === 'transaction' ? data.transaction_id : data.operation_id);
    if (rx.eventsFor(id).length !== 1)
      throw new ToolkitError('PCC_PACT', `${m.description}: the receiver does not relate the event to ${id}`);
  } finally {
    await rx.close();
  }
}
