/**
 * The request-body properties in their parts (see request-bodies.ts): tests of one file, which a
 * worker with several terminals runs side by side.
 */
import { BODY_PARTS, declareRequestBodies } from './request-bodies.ts';

for (let part = 0; part < BODY_PARTS; part++) declareRequestBodies(part);
