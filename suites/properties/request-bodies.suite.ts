/**
 * The request bodies a correct service accepts (see request-bodies.ts declareValidBodies): tests of
 * one file, which a worker with several terminals runs side by side, the longest first.
 */
import { declareValidBodies } from './request-bodies.ts';

declareValidBodies();
