/**
 * Message providers of verification: each webhook message of the pact is produced for real. The
 * event is triggered on the target through the public API (a transaction or operation with the
 * amount that ends in the event's status), the delivery is captured by the run's loopback webhook
 * receiver, and its body and `Signature` header are what the verifier compares with the pact. Only
 * a delivery the receiver verified with the pairing's key is returned.
 */
import { ToolkitError } from '../../core/index.ts';
import type { Delivery } from '../../webhooks/index.ts';
import type { WebhookMessage } from '../consumer/messages.ts';
import type { ProviderDriver, ProviderPairing } from './provider-states.ts';

/** What pact-js expects back from a message provider that sets metadata. */
export interface ProvidedMessage {
  __pactMessageMetadata: Record<string, string>;
  message: unknown;
}

/** Starts what ends in the message's event; returns the id the event is about. */
async function trigger(d: ProviderDriver, p: ProviderPairing, m: WebhookMessage): Promise<string> {
  if (m.kind === 'transaction') {
    const amount = ({ DECLINED: 1251, FAILED: 1252, EXPIRED: 1253, CANCELED: 1254 } as Record<string, number>)[m.status] ?? 1250;
    const id = await d.start(p, 'generateTransaction', { amount });
    if (m.status === 'CANCELED') {
      await d.waitFor(p, 'transaction', id, 'IN_PROGRESS');
      await d.call(p, 'cancelTransaction', { params: { transaction_id: id } });
    }
    if (m.status === 'REVERTED') {
      await d.waitFor(p, 'transaction', id, 'SUCCESS');
      const res = await d.call(p, 'revertTransaction', { params: { transaction_id: id } });
      if (res.status !== 200) throw new ToolkitError('PCC_PACT', `revert answered ${res.status}`);
    }
    return id;
  }
  const { id } = await d.preauth();
  const amount = ({ FAILED: 2051, EXPIRED: 2053 } as Record<string, number>)[m.status] ?? 2000;
  const res = await d.call(p, 'preauthIncrement', { params: { transaction_id: id }, body: { amount } });
  const opId = (res.body as { operation_id?: unknown } | undefined)?.operation_id;
  if (res.status !== 200 || typeof opId !== 'string')
    throw new ToolkitError('PCC_PACT', `preauth-increment answered ${res.status} without an operation_id`);
  return opId;
}

/** The message provider of one webhook message. */
export function messageProvider(d: ProviderDriver, m: WebhookMessage, onError: (e: unknown) => void): () => Promise<ProvidedMessage> {
  return async () => {
    try {
      const p = await d.paired();
      const rx = p.receiver;
      if (!p.observable || !rx) throw new ToolkitError('PCC_PACT', 'the webhooks of this pairing do not reach the toolkit');
      const id = await trigger(d, p, m);
      const about = (x: Delivery) => {
        const data = (x.body as { data?: Record<string, unknown> } | undefined)?.data;
        return data?.transaction_id === id || data?.operation_id === id;
      };
      const delivery = await rx.waitFor((x) => x.event === m.event && x.signature === 'valid' && about(x), {
        timeoutMs: d.o.deadlineMs * 2,
        description: `${m.event} for ${id}`,
      });
      return { __pactMessageMetadata: { Signature: delivery.headers.signature ?? '' }, message: delivery.body };
    } catch (e) {
      onError(e);
      throw e;
    }
  };
}
