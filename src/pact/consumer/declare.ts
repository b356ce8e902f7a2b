/** Declares the catalogue's interactions and messages on a pact-js V4 pact. */
import type { PactV4, V3MockServer } from '@pact-foundation/pact';
import type { HttpInteraction } from './interactions.ts';
import type { WebhookMessage } from './messages.ts';

/** A declared HTTP interaction (pact-js does not export its builder types). */
export interface DeclaredHttp {
  executeTest<T>(testFn: (mockServer: V3MockServer) => Promise<T>): Promise<T | undefined>;
}

/** A message as pact-js hands it to the consumer. */
export interface ReceivedMessage {
  contents: { content: unknown };
  metadata?: Record<string, unknown>;
}

/** A declared message. */
export interface DeclaredMessage {
  executeTest<T>(testFn: (message: ReceivedMessage) => Promise<T>): Promise<T | undefined>;
}

/** Adds one HTTP interaction; returns the builder whose `executeTest` starts the mock. */
export function declareHttp(pact: PactV4, i: HttpInteraction): DeclaredHttp {
  return pact
    .addInteraction()
    .given(i.state)
    .uponReceiving(i.description)
    .withRequest(i.method, i.path, (b) => {
      b.headers(i.headers);
      if (i.body !== undefined) b.jsonBody(i.body);
    })
    .willRespondWith(i.status, (b) => {
      if (i.responseBody !== undefined) b.jsonBody(i.responseBody);
    });
}

/** Adds one webhook message; returns the builder whose `executeTest` hands it to the consumer. */
export function declareMessage(pact: PactV4, m: WebhookMessage): DeclaredMessage {
  return pact
    .addAsynchronousInteraction()
    .given(m.state)
    .pending(m.pending)
    .expectsToReceive(m.description, (b) => {
      b.withJSONContent(m.content);
      b.withMetadata(m.metadata as never);
    }) as unknown as DeclaredMessage;
}
