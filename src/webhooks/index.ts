/** The loopback webhook receiver: raw body, HMAC verification, dedupe by event id, await a delivery. */
export type { Delivery, DeliveryCounts, DeliveryListener, SignatureState } from './delivery.ts';
export { DeliveryLog, type DeliveryDraft, type WaitForOptions } from './delivery-log.ts';
export { parseDeliveryBody, type ParsedDeliveryBody } from './parse-delivery-body.ts';
export { readBody, type BodyReadResult } from './read-body.ts';
export { startWebhookReceiver, type WebhookReceiver, type WebhookReceiverOptions } from './start-webhook-receiver.ts';
export { slotUrl, startWebhookHub, type WebhookHub, type WebhookHubOptions } from './start-webhook-hub.ts';
export { assertCanListen, loopbackBase, readDeliveryTls, type DeliveryTls } from './start-webhook-receiver.ts';
export { signBody, verifySignature, type SignatureVerdict } from './verify-signature.ts';
