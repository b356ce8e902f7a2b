/**
 * Broken on purpose (receiver.valid-accepted): the reference client, but it decodes webhook_secret_key
 * as hex instead of UTF-8, so every genuine delivery fails its signature check and is answered 403: an
 * endpoint dead in production.
 */
import { main } from '../pos-client.ts';

await main({ hexWebhookKey: true });
