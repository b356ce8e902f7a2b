/** Broken on purpose (receiver.wrong-signature-refused): the reference client, but it answers 200 to any webhook delivery without checking its signature. */
import { main } from '../pos-client.ts';

await main({ acceptForgedWebhook: true });
