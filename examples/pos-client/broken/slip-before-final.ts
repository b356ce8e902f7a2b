/** Broken on purpose (client.slip-after-final): the reference client, but it fetches the print slip right after starting the payment, before any final status. */
import { main } from '../pos-client.ts';

await main({ slipBeforeFinal: true });
