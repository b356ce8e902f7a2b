/** Broken on purpose (client.generate-resend): the reference client, but it treats the first payment's answer as lost (a timeout) and sends the payment again without reading its status. */
import { main } from '../pos-client.ts';

await main({ resendGenerate: true });
