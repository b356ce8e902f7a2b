/**
 * The client_transaction_id of a transaction a scenario starts. Whether a service treats a repeated
 * one as the same request is unknown (public-profile.md, "Still unknown": "whether
 * `client_transaction_id` is idempotent"), so a scenario that means a new transaction never repeats
 * one: an id made of the seed alone would repeat across the scenarios of one pairing, and across runs
 * that share the vault's pairings, and an idempotent service would rightly answer with the earlier
 * transaction.
 */
import { randomUUID } from 'node:crypto';

/**
 * `pcc-<tag>-<seed>-<8 random hex digits>` (without a run context, `pcc-<tag>-<...>`): readable in a
 * service's logs, never sent twice. Against the Pact mock, `pcc-<tag>-<seed>` as before: its answers
 * are fixed whatever the id, and its front answers a request it handed on before, byte for byte.
 */
export function freshClientTransactionId(tag: string, ctx?: { readonly seed: number; readonly targetKind: string }): string {
  if (ctx?.targetKind === 'pact') return `pcc-${tag}-${ctx.seed}`;
  return `pcc-${tag}${ctx === undefined ? '' : `-${ctx.seed}`}-${randomUUID().slice(0, 8)}`;
}
