import { describe, expect, it } from 'vitest';
import { annotated, annotationChanges, annotationOf } from '@/lib/proxy/task-annotation';
import type { TaskRecord } from '@/lib/storage/records/task-record';

const KEPT = 'https://proxy.test/media/o-m0123-cgt-1?expires=1766491200&sig=abc';

describe('the proxy’s arkbridge object on task answers', () => {
  it('reads the cost, unpriced, tracking and the kept copy, ignoring unknown fields', () => {
    expect(annotationOf({ id: 'x', arkbridge: { cost: 3.672, currency: 'CNY', priced: true, keptUrl: KEPT, keptUntil: 1_766_491_200, later: 1 } })).toEqual({
      cost: { cost: 3.672, currency: 'CNY', priced: true },
      kept: { keptUrl: KEPT, keptUntil: 1_766_491_200 },
    });
    expect(annotationOf({ arkbridge: { cost: 0, currency: 'CNY', priced: false } })).toEqual({ cost: { cost: 0, currency: 'CNY', priced: false }, kept: {} });
    expect(annotationOf({ arkbridge: { cost: 1, currency: 'CNY', priced: true, tracking: 'expired' } })).toMatchObject({ tracking: 'expired' });
    expect(annotationOf({ arkbridge: { cost: 1, currency: 'CNY', priced: true, keep: 'pending' } }).kept).toEqual({ keep: 'pending' });
    expect(annotationOf({ arkbridge: { cost: 1, currency: 'CNY', priced: true, keep: 'failed', keepError: 'The service answered 403.' } }).kept).toEqual({
      keep: 'failed',
      keepError: 'The service answered 403.',
    });
    expect(annotationOf({ arkbridge: { cost: 1, currency: 'CNY', priced: true, keep: 'deleted' } }).kept).toEqual({ keep: 'deleted' });
  });

  it('reads nothing from an answer without it, or a malformed one', () => {
    expect(annotationOf({ id: 'x' })).toEqual({});
    expect(annotationOf({ arkbridge: 'cheap' })).toEqual({});
    expect(annotationOf({ arkbridge: { cost: '3', currency: 'CNY' } })).toEqual({});
    expect(annotationOf({ arkbridge: { cost: -1, currency: 'CNY' } })).toEqual({});
    expect(annotationOf({ arkbridge: { cost: 1 } })).toEqual({});
    expect(annotationOf({ arkbridge: { cost: 1, currency: 'CNY', priced: true, keptUrl: 'javascript:alert(1)', keptUntil: 1 } })).toEqual({});
    expect(annotationOf({ arkbridge: { cost: 1, currency: 'CNY', priced: true, keep: 'lost' } })).toEqual({});
  });

  it('tells when storing it changes a record', () => {
    const cost = { cost: 3.672, currency: 'CNY', priced: true };
    expect(annotationChanges({}, { cost })).toBe(true);
    expect(annotationChanges({ cost }, { cost: { ...cost } })).toBe(false);
    expect(annotationChanges({ cost }, { cost: { ...cost, cost: 3 } })).toBe(true);
    expect(annotationChanges({ cost }, {})).toBe(false);
    expect(annotationChanges({ cost }, { tracking: 'expired' })).toBe(true);
    expect(annotationChanges({ cost }, { cost, kept: {} })).toBe(false);
    expect(annotationChanges({ cost }, { cost, kept: { keep: 'pending' } })).toBe(true);
    expect(annotationChanges({ cost, keep: 'pending' }, { cost, kept: { keep: 'pending' } })).toBe(false);
    expect(annotationChanges({ cost, keptUrl: KEPT, keptUntil: 1 }, { cost, kept: { keptUrl: `${KEPT}2`, keptUntil: 1 } })).toBe(true);
  });

  it('replaces the kept copy’s state as a whole, and notes when it was read', () => {
    const record = { localId: 'a', status: 'completed', keep: 'failed', keepError: 'No.' } as TaskRecord;
    expect(annotated(record, { kept: { keptUrl: KEPT, keptUntil: 5 } }, 1000)).toEqual({ localId: 'a', status: 'completed', keptUrl: KEPT, keptUntil: 5, keptReadAt: 1000 });
    expect(annotated({ ...record, keep: undefined, keepError: undefined, keptUrl: KEPT, keptUntil: 5 }, { kept: { keep: 'deleted' } }, 2000)).toEqual({
      localId: 'a',
      status: 'completed',
      keep: 'deleted',
      keptReadAt: 2000,
    });
    // An answer without the object leaves the record as it was.
    expect(annotated(record, {}, 3000)).toEqual(record);
  });

  it('keeps the kept copy of the last frame with the video’s, and drops it with the copy', () => {
    const frame = 'https://proxy.test/media/frame?sig=1';
    const read = annotationOf({ arkbridge: { cost: 1, currency: 'CNY', priced: true, keptUrl: KEPT, keptUntil: 5, keptLastFrameUrl: frame } });
    expect(read.kept).toEqual({ keptUrl: KEPT, keptUntil: 5, keptLastFrameUrl: frame });
    const kept = annotated({ localId: 'a', status: 'completed' } as TaskRecord, read, 1000);
    expect(kept.keptLastFrameUrl).toBe(frame);
    expect(annotated(kept, { kept: { keep: 'deleted' } }, 2000).keptLastFrameUrl).toBeUndefined();
  });
});
