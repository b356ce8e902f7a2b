/**
 * The redaction stage between the recorder and every consumer of Exchange records. It works on the
 * record, not on the wire: the caller must still receive the real bytes (a pairing answer's
 * client_secret is what the caller asked for), only what is written down is scrubbed.
 */
import type { ExchangeSink } from './recorder.ts';
import type { Redactor } from './redactor.ts';

/**
 * A sink that lets `redactor` learn the secrets each Exchange reveals (request Authorization,
 * client_secret / access_token / webhook_secret_key fields of either body), then passes a redacted
 * copy on to `sink`. Learning comes first, so the record that reveals a secret is scrubbed too.
 *
 * @param redactor - the run's shared redactor (also used for logs, reports and pact files)
 * @param sink - where redacted records go
 */
export function redaction(redactor: Redactor, sink: ExchangeSink): ExchangeSink {
  return (exchange, context) => sink(redactor.redactExchange(exchange), context);
}
