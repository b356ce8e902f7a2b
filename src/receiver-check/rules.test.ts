import { describe, expect, it } from 'vitest';
import { validators } from '../generated/contract.ts';
import { verifySignature } from '../webhooks/index.ts';
import { compactJson, escapedJson, everyEvent, indentedJson, reorderedJson, spacedJson } from './deliveries.ts';
import { RULES, rulesOf } from '../checks/rule-registry.ts';
import { ANSWERED_IN_TIME, OVERSIZED_BYTES, RECEIVER_RULES, RULE_IDS, meets } from './rules.ts';
import type { SentDelivery } from './send.ts';

const SECRET = 'unit-secret-0123456789abcdef';

describe('deliveries (sandbox.md, Webhooks)', () => {
  it('every transaction and operation event of the contract, each valid against its event schema', () => {
    const events = everyEvent();
    expect(events.map((p) => p.event)).toEqual([
      'transaction.initiated',
      'transaction.in_progress',
      'transaction.success',
      'transaction.canceled',
      'transaction.declined',
      'transaction.reverted',
      'transaction.expired',
      'transaction.failed',
      'operation.initiated',
      'operation.in_progress',
      'operation.success',
      'operation.failed',
      'operation.expired',
    ]);
    for (const p of events) {
      const validate = p.event.startsWith('transaction.') ? validators.TransactionEvent! : validators.OperationEvent!;
      expect(validate(JSON.parse(compactJson(p))), `${p.event}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(new Set(events.map((p) => p.event_id)).size).toBe(events.length);
  });

  it('the compact form has sorted keys at every level and no whitespace; the other forms are the same object in other bytes', () => {
    const value = { event_id: 'e', event: 'transaction.success', data: { z: 1, a: { y: 'čaj/€', b: [2, { d: 1, c: 0 }] } } };
    expect(compactJson(value)).toBe(
      '{"data":{"a":{"b":[2,{"c":0,"d":1}],"y":"čaj/€"},"z":1},"event":"transaction.success","event_id":"e"}',
    );
    for (const form of [spacedJson, indentedJson, reorderedJson, escapedJson]) {
      const text = form(value);
      expect(text).not.toBe(compactJson(value));
      expect(JSON.parse(text)).toEqual(value);
    }
    expect(escapedJson(value)).toContain('\\u010daj\\/\\u20ac');
    expect(reorderedJson(value).startsWith('{"event_id":"e","event":')).toBe(true);
  });
});

describe('rules', () => {
  it('have unique ids, a source that sets the clause, a title and a fix', () => {
    expect(new Set(RULE_IDS).size).toBe(RULE_IDS.length);
    for (const r of [...RECEIVER_RULES, ANSWERED_IN_TIME]) {
      expect(r.id).toMatch(/^receiver\.[a-z-]+$/);
      expect(r.clause).toBe({ spec: 'spec#events', sandbox: 'sandbox#webhooks', profile: 'profile#webhooks' }[r.source]);
      expect(r.title.length).toBeGreaterThan(10);
      expect(r.fix.length).toBeGreaterThan(10);
    }
    expect(RECEIVER_RULES.filter((r) => r.source === 'profile').map((r) => r.id)).toEqual([
      'receiver.unknown-event-accepted',
      'receiver.oversized-refused',
      'receiver.malformed-refused',
    ]);
    expect(RECEIVER_RULES.filter((r) => r.source === 'sandbox').map((r) => r.id)).toEqual([
      'receiver.duplicate-accepted',
      'receiver.out-of-order-accepted',
    ]);
  });

  it("are the registry's check-receiver rules, in its order, with its metadata", () => {
    expect(rulesOf('check-receiver').map((r) => r.id)).toEqual(RULE_IDS);
    for (const r of [...RECEIVER_RULES, ANSWERED_IN_TIME]) {
      const registered = RULES.get(r.id)!;
      expect({ source: r.source, clause: r.clause, title: r.title, fix: r.fix }).toEqual({
        source: registered.source,
        clause: registered.clause,
        title: registered.title,
        fix: registered.fix,
      });
    }
  });

  it('what must be accepted is signed with the key over the exact bytes; what must be refused as forged is not', () => {
    for (const rule of RECEIVER_RULES) {
      for (const d of rule.plan(SECRET)) {
        const verdict = verifySignature(d.signed.body, d.signed.signature ?? undefined, SECRET);
        if (d.expect === 'accepted' || d.expect === 'refused-cleanly') expect(verdict, `${rule.id}: ${d.label}`).toBe('valid');
        else expect(verdict, `${rule.id}: ${d.label}`).not.toBe('valid');
        expect(d.signed.body.includes(SECRET)).toBe(false);
        expect(d.signed.signature ?? '').not.toContain(SECRET);
        expect(d.shownBody ?? '').not.toContain(SECRET);
      }
    }
  });

  it('the duplicate is the same bytes twice; the oversized body is over the limit and not shown', () => {
    const [a, b] = RECEIVER_RULES.find((r) => r.id === 'receiver.duplicate-accepted')!.plan(SECRET);
    expect(a!.signed.body.equals(b!.signed.body)).toBe(true);
    expect(a!.eventId).toBe(b!.eventId);
    const [big] = RECEIVER_RULES.find((r) => r.id === 'receiver.oversized-refused')!.plan(SECRET);
    expect(big!.signed.body.length).toBeGreaterThanOrEqual(OVERSIZED_BYTES - 64);
    expect(big!.shownBody!.length).toBeLessThan(400);
    expect(JSON.parse(big!.signed.body.toString()).event).toBe('transaction.success');
  });

  it('meets: 2xx for accepted; anything but 2xx for refused; a 4xx or a closed connection for refused-cleanly', () => {
    const answer = (status?: number, errorCode?: string) => ({ status, errorCode, durationMs: 1 }) as SentDelivery;
    expect(meets('accepted', answer(204)).ok).toBe(true);
    expect(meets('accepted', answer(409)).ok).toBe(false);
    expect(meets('accepted', answer(undefined, 'ECONNREFUSED'))).toEqual({ ok: false, why: 'no answer (ECONNREFUSED)' });
    expect(meets('refused', answer(403)).ok).toBe(true);
    expect(meets('refused', answer(500)).ok).toBe(true);
    expect(meets('refused', answer(200))).toEqual({ ok: false, why: 'answered 200 (accepted)' });
    expect(meets('refused-cleanly', answer(413)).ok).toBe(true);
    expect(meets('refused-cleanly', answer(undefined, 'ECONNRESET')).ok).toBe(true);
    expect(meets('refused-cleanly', answer(undefined, 'PCC_TIMEOUT')).ok).toBe(false);
    expect(meets('refused-cleanly', answer(500)).ok).toBe(false);
    expect(meets('refused-cleanly', answer(202)).ok).toBe(false);
  });
});
