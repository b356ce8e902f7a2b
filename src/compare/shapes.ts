/**
 * What a run's answers looked like, as sets of keys to compare: per operation and status code the JSON
 * fields and their types, the contract's enum values seen, the status codes answered, the webhook
 * events received. Built from the transcript's exchanges and deliveries; keys only, no values but
 * enum values.
 */
import { type Exchange, contractEnumFields, enumSightings } from '../core/index.ts';
import { operations } from '../generated/contract.ts';

/** A run's shapes: sorted keys of each kind. */
export interface Shapes {
  /** `getPrintSlip 200 slip.lines[].text: string` */
  fields: string[];
  /** `getPrintSlip 200 TransactionRecord.status=SUCCESS`, `webhook TransactionEvent.event=transaction.success` */
  enums: string[];
  /** `getPrintSlip 200` */
  statuses: string[];
  /** `transaction.success` */
  events: string[];
}

export const SHAPE_KINDS = ['fields', 'enums', 'statuses', 'events'] as const;

/** A field's paths and JSON types in a body (arrays as `[]`, nested at most 8 deep). */
export function fieldsOf(body: unknown, prefix = '', out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 8) return out;
  if (Array.isArray(body)) {
    for (const item of body) fieldsOf(item, `${prefix}[]`, out, depth + 1);
    return out;
  }
  if (body !== null && typeof body === 'object') {
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      const path = prefix ? `${prefix}.${k}` : k;
      out.add(`${path}: ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v}`);
      fieldsOf(v, path, out, depth + 1);
    }
  }
  return out;
}

const capped = (body: unknown) => body !== null && typeof body === 'object' && '$capped' in (body as object);

/**
 * The shapes of a run's exchanges and webhook deliveries. A delivery's body is its raw bytes in a
 * transcript (`rawBody`), the parsed JSON in a test's record (`body`, what `run --compare-to` has):
 * either is read, so both ways of comparing see the same webhook fields.
 */
export function shapesOf(
  exchanges: readonly Exchange[],
  deliveries: readonly { event?: string; rawBody?: unknown; body?: unknown }[],
): Shapes {
  const sets = { fields: new Set<string>(), enums: new Set<string>(), statuses: new Set<string>(), events: new Set<string>() };
  const enumFields = contractEnumFields();
  for (const ex of exchanges) {
    const status = ex.response?.status;
    if (!ex.operationId || status === undefined) continue;
    const at = `${ex.operationId} ${status}`;
    sets.statuses.add(at);
    const body = ex.response?.body;
    if (body === undefined || capped(body)) continue;
    for (const f of fieldsOf(body)) sets.fields.add(`${at} ${f}`);
    const schema = operations.find((o) => o.operationId === ex.operationId)?.responses[String(status)]?.schema;
    if (schema) for (const e of enumSightings(schema, body, enumFields)) sets.enums.add(`${at} ${e}`);
  }
  for (const d of deliveries) {
    if (d.event) sets.events.add(d.event);
    let body: unknown = d.body;
    if (typeof d.rawBody === 'string') {
      try {
        body = JSON.parse(d.rawBody);
      } catch {
        continue;
      }
    }
    if (body === undefined || capped(body)) continue;
    const schema = enumFields.find((f) => f.path === 'event' && d.event !== undefined && f.values.includes(d.event))?.schema;
    if (schema) for (const e of enumSightings(schema, body, enumFields)) sets.enums.add(`webhook ${e}`);
    if (d.event) for (const f of fieldsOf(body)) sets.fields.add(`webhook ${d.event} ${f}`);
  }
  const sorted = (s: Set<string>) => [...s].sort();
  return { fields: sorted(sets.fields), enums: sorted(sets.enums), statuses: sorted(sets.statuses), events: sorted(sets.events) };
}
