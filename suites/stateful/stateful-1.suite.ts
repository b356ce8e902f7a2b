/** Part 1 of the model-based scenario (see stateful.ts: the parts run side by side on a pool of terminals). */
import { declareStatefulPart } from './stateful.ts';

declareStatefulPart(0);
