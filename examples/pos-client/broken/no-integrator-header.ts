/** Broken on purpose (client.integrator-header): the reference client, but it reads the configuration without the X-Pay-Connect-Integrator-Id header. */
import { main } from '../pos-client.ts';

await main({ noIntegratorHeader: true });
