/** The loopback webhook receiver: raw body, HMAC verification, dedupe by event id, await a delivery. */
export type { Delivery, DeliveryCounts, DeliveryListener, SignatureState } from './delivery.ts';
export { DeliveryLog, type DeliveryDraft, type WaitForOptions } from './deliveryLog.ts';
export { parseDeliveryBody, type ParsedDeliveryBody } from './parseDeliveryBody.ts';
export { readBody, type BodyReadResult } from './readBody.ts';
export { startWebhookReceiver, type WebhookReceiver, type WebhookReceiverOptions } from './startWebhookReceiver.ts';
export { startWebhookHub, type WebhookHub, type WebhookHubOptions } from './startWebhookHub.ts';
export { signBody, verifySignature, type SignatureVerdict } from './verifySignature.ts';
