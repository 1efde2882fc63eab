/**
 * The studio on a busy service (support/studio-queue.ts): a batch of eight on a cap of two, the
 * issue's case where most of the batch waits.
 */
import { batchOnCap } from './support/studio-queue';

batchOnCap(2, 8);
