import { describe, expect, it } from 'vitest';
import { annotationChanges, annotationOf } from '@/lib/proxy/task-annotation';

describe('the proxy’s arkbridge object on task answers', () => {
  it('reads the cost, unpriced and tracking, ignoring unknown fields', () => {
    expect(annotationOf({ id: 'x', arkbridge: { cost: 3.672, currency: 'CNY', priced: true, keptUrl: 'https://k', keptUntil: 1 } })).toEqual({
      cost: { cost: 3.672, currency: 'CNY', priced: true },
    });
    expect(annotationOf({ arkbridge: { cost: 0, currency: 'CNY', priced: false } })).toEqual({ cost: { cost: 0, currency: 'CNY', priced: false } });
    expect(annotationOf({ arkbridge: { cost: 1, currency: 'CNY', priced: true, tracking: 'expired' } })).toMatchObject({ tracking: 'expired' });
  });

  it('reads nothing from an answer without it, or a malformed one', () => {
    expect(annotationOf({ id: 'x' })).toEqual({});
    expect(annotationOf({ arkbridge: 'cheap' })).toEqual({});
    expect(annotationOf({ arkbridge: { cost: '3', currency: 'CNY' } })).toEqual({});
    expect(annotationOf({ arkbridge: { cost: -1, currency: 'CNY' } })).toEqual({});
    expect(annotationOf({ arkbridge: { cost: 1 } })).toEqual({});
  });

  it('tells when storing it changes a record', () => {
    const cost = { cost: 3.672, currency: 'CNY', priced: true };
    expect(annotationChanges({}, { cost })).toBe(true);
    expect(annotationChanges({ cost }, { cost: { ...cost } })).toBe(false);
    expect(annotationChanges({ cost }, { cost: { ...cost, cost: 3 } })).toBe(true);
    expect(annotationChanges({ cost }, {})).toBe(false);
    expect(annotationChanges({ cost }, { tracking: 'expired' })).toBe(true);
  });
});
