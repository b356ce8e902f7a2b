/**
 * The plan of a manual session: what a person at a real terminal is asked to do, in which order, and
 * how long it takes. Pure: the run plans from the tests' declared operator steps before any test runs.
 *
 * Swapping the physical test card is the slow, error-prone part of a session, so the files are put in
 * the order that needs the fewest swaps. Only files can move: the test runner runs a file's tests in
 * declaration order, so steps keep their order within their file.
 */
import type { Outcome } from './driver.ts';

/** The physical card a step needs in the operator's hand ('no card': the step needs none). */
export type Card = 'approve card' | 'decline card' | 'no card';

/** One step a person does at the terminal: the test it belongs to, its file, what the test wants. */
export interface PlanStep {
  test: string;
  file: string;
  outcome: Outcome;
}

/** The steps in run order, the files in run order, the card changes that needs, and its length. */
export interface SessionPlan {
  steps: PlanStep[];
  files: string[];
  cardChanges: number;
  estimateMs: number;
}

/** An exhaustive table, so a new outcome cannot be added without saying which card it needs. */
const CARDS: Readonly<Record<Outcome, Card>> = {
  approve: 'approve card',
  tip: 'approve card',
  'refuse-cancel': 'approve card',
  fail: 'approve card', // inserted, then pulled out before the terminal finishes
  'wait-in-progress': 'approve card', // held ready at the card prompt while the harness cancels
  decline: 'decline card',
  expire: 'no card',
  offline: 'no card',
};

/** One imperative sentence per outcome: what the operator does, in the words of the terminal. */
const INSTRUCTIONS: Readonly<Record<Outcome, string>> = {
  approve: 'Present the approve test card.',
  decline: 'Present the decline test card.',
  fail: 'Insert the approve test card, then pull it out before the terminal finishes.',
  expire: 'Do nothing until the terminal gives up (it times out on its own).',
  'wait-in-progress': 'Keep the approve test card ready but do not present it: the harness cancels the payment.',
  offline: 'Take the terminal off its network and leave it offline until this step ends.',
  'refuse-cancel': 'Refuse the cancel when the terminal offers it, then present the approve test card.',
  tip: 'Add a tip of 1.00 on the terminal, then present the approve test card.',
};

/** The time per card step when none is given: present, wait for the terminal, read the status. */
const DEFAULT_STEP_MS = 30_000;

/** The time one card change adds: put a card away, find the other one. */
const CARD_CHANGE_MS = 10_000;

/** Up to this many files the order is exact (dynamic programming over subsets); beyond, greedy. */
const EXACT_MAX_FILES = 16;

/** The physical card `o` needs. */
export function cardFor(o: Outcome): Card {
  return CARDS[o];
}

/** What the operator is told to do for `o`: one clear sentence. */
export function operatorInstruction(o: Outcome): string {
  return INSTRUCTIONS[o];
}

/** The card in hand: an index into the session's cards, or NONE before the first card step. */
const NONE = -1;

/** A file as the ordering sees it: the cards its steps need, 'no card' steps left out. */
interface FileCards {
  name: string;
  steps: PlanStep[];
  cards: number[];
}

/** Card changes a file adds when `inHand` is held before it, and the card held after it. */
function through(f: FileCards, inHand: number): { changes: number; after: number } {
  let changes = 0;
  let held = inHand;
  for (const c of f.cards) {
    if (held !== NONE && held !== c) changes++;
    held = c;
  }
  return { changes, after: held };
}

/** Groups steps by file, files in order of first appearance, steps in their given order. */
function groupFiles(steps: readonly PlanStep[]): FileCards[] {
  const byName = new Map<string, FileCards>();
  const cardIds = new Map<Card, number>();
  for (const s of steps) {
    let f = byName.get(s.file);
    if (!f) byName.set(s.file, (f = { name: s.file, steps: [], cards: [] }));
    f.steps.push(s);
    const card = cardFor(s.outcome);
    if (card === 'no card') continue;
    if (!cardIds.has(card)) cardIds.set(card, cardIds.size);
    f.cards.push(cardIds.get(card)!);
  }
  return [...byName.values()];
}

/**
 * The exact order: `rest[mask][held + 1]` is the fewest changes needed to run the files not in `mask`
 * when `held` is in hand. The state needs only the card in hand, not the order so far, so this is
 * 2^n x (cards + 1) states. Of the optimal orders it returns the one that keeps the given file order
 * longest (lowest index first at every point), so equal input gives equal plans.
 */
function exactOrder(files: readonly FileCards[], cardCount: number): number[] {
  const n = files.length;
  const width = cardCount + 1;
  const full = (1 << n) - 1;
  const rest = new Int32Array((full + 1) * width);
  for (let mask = full - 1; mask >= 0; mask--) {
    for (let held = NONE; held < cardCount; held++) {
      let best = Number.MAX_SAFE_INTEGER;
      for (let i = 0; i < n; i++) {
        if (mask & (1 << i)) continue;
        const step = through(files[i]!, held);
        best = Math.min(best, step.changes + rest[(mask | (1 << i)) * width + step.after + 1]!);
      }
      rest[mask * width + held + 1] = best;
    }
  }
  const order: number[] = [];
  let mask = 0;
  let held = NONE;
  while (mask !== full) {
    const want = rest[mask * width + held + 1]!;
    for (let i = 0; i < n; i++) {
      if (mask & (1 << i)) continue;
      const step = through(files[i]!, held);
      if (step.changes + rest[(mask | (1 << i)) * width + step.after + 1]! !== want) continue;
      order.push(i);
      mask |= 1 << i;
      held = step.after;
      break;
    }
  }
  return order;
}

/** Beyond the exact limit: each time the file that adds the fewest changes now (earliest on a tie). */
function greedyOrder(files: readonly FileCards[]): number[] {
  const left = files.map((_, i) => i);
  const order: number[] = [];
  let held = NONE;
  while (left.length > 0) {
    let pick = 0;
    let pickStep = through(files[left[0]!]!, held);
    for (let k = 1; k < left.length; k++) {
      const step = through(files[left[k]!]!, held);
      if (step.changes < pickStep.changes) [pick, pickStep] = [k, step];
    }
    order.push(left.splice(pick, 1)[0]!);
    held = pickStep.after;
  }
  return order;
}

/** Card changes over steps run in this order ('no card' steps neither break nor start a run). */
function countChanges(steps: readonly PlanStep[]): number {
  let changes = 0;
  let held: Card | undefined;
  for (const s of steps) {
    const card = cardFor(s.outcome);
    if (card === 'no card') continue;
    if (held !== undefined && held !== card) changes++;
    held = card;
  }
  return changes;
}

/**
 * Orders the files of a manual session so the operator changes cards as few times as possible: an
 * exact search (dynamic programming over sets of files) up to 16 files, a greedy pick beyond that.
 * The estimate: `stepMs` (default 30 s) per card step, `expireMs` per 'no card' step (it waits for the
 * terminal to give up), and 10 s per card change.
 */
export function planSession(steps: PlanStep[], opts: { stepMs?: number; expireMs: number }): SessionPlan {
  const files = groupFiles(steps);
  const cardCount = new Set(steps.map((s) => cardFor(s.outcome)).filter((c) => c !== 'no card')).size;
  const order = files.length <= EXACT_MAX_FILES ? exactOrder(files, cardCount) : greedyOrder(files);
  const ordered = order.map((i) => files[i]!);
  const run = ordered.flatMap((f) => f.steps);
  const cardChanges = countChanges(run);
  const stepMs = opts.stepMs ?? DEFAULT_STEP_MS;
  const waits = run.reduce((ms, s) => ms + (cardFor(s.outcome) === 'no card' ? opts.expireMs : stepMs), 0);
  return { steps: run, files: ordered.map((f) => f.name), cardChanges, estimateMs: waits + cardChanges * CARD_CHANGE_MS };
}
