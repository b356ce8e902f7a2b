/**
 * The model-based scenario in its parts (see stateful.ts): tests of one file, which a worker with
 * several terminals runs side by side, one part on each.
 */
import { STATEFUL_PARTS, declareStatefulPart } from './stateful.ts';

for (let part = 0; part < STATEFUL_PARTS; part++) declareStatefulPart(part);
