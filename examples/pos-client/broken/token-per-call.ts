/** Broken on purpose (client.token-reuse): the reference client, but it gets a new token before every call. */
import { main } from '../pos-client.ts';

await main({ tokenPerCall: true });
