/**
 * Pact files on disk: the normalised form the toolkit commits (interactions sorted, so the consumer
 * suite and the pact target write byte-identical files whatever order pact-js merged them in), and
 * finding the pact files of a path.
 */
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ToolkitError } from '../../core/index.ts';
import { PACT_FILE_NAME } from './names.ts';

/** The parts of a V4 pact file the toolkit reads. */
export interface PactFile {
  consumer: { name: string };
  provider: { name: string };
  interactions: PactInteraction[];
  metadata?: Record<string, unknown>;
}

/** One interaction of a V4 pact file. */
export interface PactInteraction {
  type: string;
  description: string;
  pending?: boolean;
  providerStates?: { name: string; params?: Record<string, unknown> }[];
  request?: {
    method: string;
    path: string;
    headers?: Record<string, string[]>;
    body?: { content?: unknown; contentType?: string };
    generators?: unknown;
    matchingRules?: unknown;
  };
  response?: {
    status: number;
    headers?: Record<string, string[]>;
    body?: { content?: unknown; contentType?: string };
    matchingRules?: unknown;
  };
  contents?: { content?: unknown; contentType?: string };
  metadata?: Record<string, unknown>;
  matchingRules?: unknown;
}

/** The pact in `text`, with its interactions in a stable order. */
export function normalizePact(text: string): string {
  const pact = JSON.parse(text) as PactFile;
  pact.interactions.sort((a, b) => `${a.type}\u0000${a.description}`.localeCompare(`${b.type}\u0000${b.description}`));
  return `${JSON.stringify(pact, null, 2)}\n`;
}

/** Copies the pact pact-js wrote into `fromDir` to `toDir`, normalised; returns the written path. */
export function writeNormalizedPact(fromDir: string, toDir: string): string {
  const source = join(fromDir, PACT_FILE_NAME);
  let text: string;
  try {
    text = readFileSync(source, 'utf8');
  } catch (e) {
    throw new ToolkitError('PCC_PACT', `pact-js wrote no pact file at ${source}`, 'a consumer interaction failed: see the test output', {
      cause: e,
    });
  }
  mkdirSync(toDir, { recursive: true });
  const target = join(toDir, PACT_FILE_NAME);
  writeFileSync(target, normalizePact(text));
  return target;
}

/** The pact files of `path`: the file itself, or the `*.json` files of a folder. */
export function pactFilesOf(path: string): string[] {
  const abs = resolve(path);
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw new ToolkitError(
      'PCC_USAGE',
      `no pact file or folder at ${abs}`,
      'pass --pact <file or folder>, or run the consumer suite first (npx vitest run --project contracts)',
    );
  }
  if (st.isFile()) return [abs];
  const files = readdirSync(abs)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(abs, f));
  if (files.length === 0) throw new ToolkitError('PCC_USAGE', `no pact file (*.json) in ${abs}`, 'pass --pact <file or folder>');
  return files;
}

/** Reads and parses a pact file. */
export function readPact(file: string): PactFile {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PactFile;
  } catch (e) {
    throw new ToolkitError(
      'PCC_PACT',
      `${file} is not a readable pact file: ${(e as Error).message}`,
      'regenerate it with the consumer suite',
      { cause: e },
    );
  }
}
