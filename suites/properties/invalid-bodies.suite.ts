/**
 * The request bodies a correct service refuses (see request-bodies.ts declareInvalidBodies), a file
 * apart from the valid ones so that another worker runs them side by side.
 */
import { declareInvalidBodies } from './request-bodies.ts';

declareInvalidBodies();
