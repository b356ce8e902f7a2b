/** The model-based scenario's parts 3 and 4 (see stateful.ts and stateful.suite.ts, parts 1 and 2). */
import { STATEFUL_PARTS, declareStatefulPart } from './stateful.ts';

for (let part = 2; part < STATEFUL_PARTS; part++) declareStatefulPart(part);
