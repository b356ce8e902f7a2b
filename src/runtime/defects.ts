/**
 * The run's ledger of service defects, so that one defect is reported once and stops costing time.
 * - Every finding has a defect key (check, severity, clause, operation, message without ids): the
 *   first finding of a key is the root; later ones are repeats, counted on the root instead of
 *   failing another test.
 * - A wait that fails twice in a row for the same reason (no final status, no valid webhook) is
 *   systemic: later waits of that kind end at once, blocked by the root finding.
 * - A service answer that stops a test (no token, no answer, a refused pairing) blocks the later tests
 *   that need the same thing, naming the finding instead of failing them again.
 * A worker's ledger is linked to the run's hub (shared-ledger.ts): the roots it files and the waits it
 * makes are news for the others, so all of this holds for the run, not for one worker.
 */
import { FOLLOW_UPS } from '../checks/follow-ups.ts';
import { type Finding, type RootCause, type SeenAgain, defectKey, linkFollowUps, rootOf } from '../core/index.ts';

export type { RootCause } from '../core/index.ts';

/** The kinds of wait that become systemic after repeated misses. */
export type WaitKind = 'transaction-final' | 'operation-final' | 'webhook-valid' | 'answer';

/** Misses in a row after which a kind of wait is systemic. */
export const SYSTEMIC_AFTER = 2;

/** A root finding and where it was seen again. */
export interface DefectRecord {
  root: RootCause;
  /** Whether the root finding is in a reported test's findings (a recording scope's are not). */
  reported: boolean;
  /** Occurrences after the first, by test. */
  repeats: Map<string, number>;
}

/**
 * What ledgers tell each other through the run's hub: a defect's root (new, or now reported), how a
 * wait ended (worker to hub), a kind of wait the run found futile (hub to workers), and whether the
 * run counts misses of a kind of wait (hub to workers: only then does a wait that ended well matter
 * to the hub, which it tells to forget them).
 */
export type LedgerNews =
  | { kind: 'root'; key: string; root: RootCause; reported: boolean }
  | { kind: 'waited'; wait: WaitKind; missed?: RootCause }
  | { kind: 'systemic'; key: WaitKind; root: RootCause }
  | { kind: 'misses'; wait: WaitKind; counted: boolean };

export class DefectLedger {
  readonly #defects = new Map<string, DefectRecord>();
  readonly #misses = new Map<WaitKind, { count: number; root?: RootCause }>();
  readonly #systemic = new Map<string, RootCause>();
  /**
   * The kinds of wait whose misses the run's hub counts: a wait of these that ends well is told, so
   * the count starts again. Others end well unsaid: a clean run sends the hub no news per request.
   */
  readonly #counted = new Set<WaitKind>();
  #tell?: (news: LedgerNews) => void;

  /** Sends this ledger's news to `tell` from now on (the run's hub); undefined keeps it to itself. */
  connect(tell: ((news: LedgerNews) => void) | undefined): void {
    this.#tell = tell;
  }

  /**
   * Takes in another ledger's news: a root filed elsewhere makes later sightings here repeats, and a
   * kind of wait found futile elsewhere is futile here. True when it changed what this ledger knows.
   */
  absorb(news: LedgerNews): boolean {
    if (news.kind === 'misses') {
      if (news.counted) this.#counted.add(news.wait);
      else this.#counted.delete(news.wait);
      return false;
    }
    if (news.kind === 'systemic') {
      if (this.#systemic.has(news.key)) return false;
      this.#systemic.set(news.key, news.root);
      return true;
    }
    if (news.kind !== 'root') return false;
    const hit = this.#defects.get(news.key);
    if (!hit) {
      this.#defects.set(news.key, { root: { ...news.root }, reported: news.reported, repeats: new Map() });
      return true;
    }
    if (!news.reported || hit.reported) return false;
    hit.reported = true;
    Object.assign(hit.root, news.root);
    return true;
  }

  /**
   * Files a finding seen by `test`: `root` when it is the first of its defect (or the first reported
   * one), `again` when the same test saw it already (with other ids), else `repeat` (counted on the
   * root's record).
   */
  file(f: Finding, test: string, reported: boolean): { kind: 'root' | 'again' | 'repeat'; root: RootCause } {
    const key = defectKey(f);
    const hit = this.#defects.get(key);
    if (!hit) {
      const root = rootOf(f, test);
      this.#defects.set(key, { root, reported, repeats: new Map() });
      this.#tell?.({ kind: 'root', key, root, reported });
      return { kind: 'root', root };
    }
    if (reported && !hit.reported) {
      // The first sighting was in a scope whose findings are not reported: this one stands for it.
      // Changed in place, so that what was blocked by the old sighting names this one.
      hit.reported = true;
      Object.assign(hit.root, rootOf(f, test));
      this.#tell?.({ kind: 'root', key, root: hit.root, reported });
      return { kind: 'root', root: hit.root };
    }
    if (hit.root.test === test) return { kind: 'again', root: hit.root };
    hit.repeats.set(test, (hit.repeats.get(test) ?? 0) + 1);
    return { kind: 'repeat', root: hit.root };
  }

  /** Whether a root cause's finding is reported somewhere (else a test it blocks reports it). */
  isReported(root: RootCause): boolean {
    for (const d of this.#defects.values()) if (d.root.check === root.check && d.root.message === root.message && d.reported) return true;
    return false;
  }

  /** Every defect filed so far. */
  defects(): DefectRecord[] {
    return [...this.#defects.values()];
  }

  /** Records the outcome of a wait; a miss carries the finding that explains it. True when now systemic. */
  waited(kind: WaitKind, missed: RootCause | undefined): boolean {
    if (!missed) {
      if (this.#counted.has(kind)) this.#tell?.({ kind: 'waited', wait: kind });
      if (!this.#systemic.has(kind)) this.#misses.delete(kind);
      return false;
    }
    this.#tell?.({ kind: 'waited', wait: kind, missed });
    // The hub counts this kind from now on (its news saying so may still be on the way).
    this.#counted.add(kind);
    const m = this.#misses.get(kind) ?? { count: 0 };
    m.count++;
    m.root ??= missed;
    this.#misses.set(kind, m);
    if (m.count >= SYSTEMIC_AFTER && !this.#systemic.has(kind)) {
      this.#systemic.set(kind, m.root);
      return true;
    }
    return false;
  }

  /** How many misses in a row of `kind` this ledger counts (0 once one ended well). */
  misses(kind: WaitKind): number {
    return this.#misses.get(kind)?.count ?? 0;
  }

  /** The root cause a kind of wait or a named need is blocked by, if any. */
  blocker(key: WaitKind | string): RootCause | undefined {
    return this.#systemic.get(key);
  }

  /** Blocks a named need (e.g. `token:<pairing>`) by a root cause from now on. */
  block(key: string, root: RootCause): void {
    if (!this.#systemic.has(key)) this.#systemic.set(key, root);
  }
}

/**
 * A test's findings with each one that follows from a root on the same exchange marked `followsFrom`
 * (the relations of checks/follow-ups.ts): a root of the test's own, or one an earlier test reported
 * and this test saw again (`repeats`, with the exchange they were seen on). One defect, one line.
 */
export function linkTestFollowUps<F extends Finding>(
  findings: readonly F[],
  repeats: readonly { check: string; severity: Finding['severity']; exchangeSeq?: number; root: RootCause }[],
  test: string,
): F[] {
  const seen: SeenAgain[] = repeats.map((r) => ({
    check: r.check,
    severity: r.severity,
    ...(r.exchangeSeq === undefined ? {} : { exchangeSeq: r.exchangeSeq }),
    root: r.root,
  }));
  return linkFollowUps(findings, seen, FOLLOW_UPS, test);
}
