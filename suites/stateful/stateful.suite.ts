/**
 * The model-based scenario's parts 1 and 2 (see stateful.ts); parts 3 and 4 are the next file's. Two
 * files, each of fewer tests than a worker's terminals, so the run gives each a worker (run-plan.ts
 * workersFor) and all four parts run side by side: in one file, a worker of three terminals ran the
 * fourth part after the others, and the file lasted twice as long.
 */
import { declareStatefulPart } from './stateful.ts';

for (const part of [0, 1]) declareStatefulPart(part);
