/**
 * Checks on what stops a request altogether: the service gave no answer, or would not give the token
 * the pairing's credentials are for. The client raises these as errors (a request cannot go on);
 * during a run the engine judges them here, so they are findings about the service like any other.
 */
import type { Exchange } from '../core/index.ts';
import { defineCheck, fail, pass } from './check.ts';

/** A request that may have gone unanswered. */
export interface AnswerObservation {
  /** `METHOD /path` or the contract's operation id. */
  request: string;
  /** Why no answer came (time-out, connection refused or reset); undefined when one came. */
  error?: string;
}

/** Every endpoint answers (spec: each one has its response); silence is not an answer. */
export const requestAnswered = defineCheck<AnswerObservation, 'request.answered'>({
  id: 'request.answered',
  clause: 'spec#endpoints',
  source: 'spec',
  title: 'Every request gets an answer',
  run(o) {
    if (o.error === undefined) return pass();
    return fail({ message: `${o.request}: no answer (${o.error})`, evidence: o });
  },
});

/** A token request for the pairing's credentials, and why it gave no token. */
export interface TokenObservation {
  /** Why no token was obtained; undefined when one was. */
  refused?: string;
  /** The token request's exchange, when there was one. */
  exchange?: Exchange;
}

/** The pairing's client credentials obtain a bearer token (spec: they are exchanged at the token endpoint). */
export const tokenObtained = defineCheck<TokenObservation, 'auth.token-obtained'>({
  id: 'auth.token-obtained',
  clause: 'spec#authentication',
  source: 'spec',
  title: "The pairing's client credentials obtain a bearer token",
  run(o) {
    if (o.refused === undefined) return pass();
    return fail({ message: `the pairing's client credentials obtained no token: ${o.refused}`, evidence: o });
  },
});
