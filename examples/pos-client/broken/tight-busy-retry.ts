/** Broken on purpose (client.busy-retry): the reference client, but it starts another payment while one runs and retries the 409 every 20 ms. */
import { main } from '../pos-client.ts';

await main({ tightBusyRetry: true });
