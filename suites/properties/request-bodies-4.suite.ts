/** Part 4 of the request-body properties (see request-bodies.ts: the parts run side by side on a pool of terminals). */
import { declareRequestBodies } from './request-bodies.ts';

declareRequestBodies(3);
