/** Broken on purpose (TLS): the reference client, but it does not read PAYCONNECT_CA_FILE, so `--tls` leaves it unable to connect. */
import { main } from '../pos-client.ts';

await main({ ignoreCaFile: true });
