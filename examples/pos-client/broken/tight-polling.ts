/** Broken on purpose (client.poll-rate): the reference client, but it polls every 20 ms, without back-off. */
import { main } from '../pos-client.ts';

await main({ tightPolling: true });
