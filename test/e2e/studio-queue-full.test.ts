/**
 * The studio on a busy service (support/studio-queue.ts): the largest batch the studio launches
 * (32, its MAX_BATCH_TASKS, which the seeds field's `max` states) on a cap of four: 28 held at once,
 * every one launched once and completed.
 */
import { batchOnCap } from './support/studio-queue';

batchOnCap(4, 32);
