/**
 * The request-body properties (see request-bodies.ts): tests of one file, which a worker with several
 * terminals runs side by side, the longest first.
 */
import { declareRequestBodies } from './request-bodies.ts';

declareRequestBodies();
