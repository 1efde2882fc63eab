import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { queuedCreateSchema, queueIdSchema, queueItemSchema } from './queue';

describe('queue shapes', () => {
  it('takes only abq_ ids of 24 lowercase letters or digits', () => {
    expect(v.is(queueIdSchema, `abq_${'a1'.repeat(12)}`)).toBe(true);
    for (const bad of ['abq_', `abq_${'A'.repeat(24)}`, `abq_${'a'.repeat(25)}`, `cgt_${'a'.repeat(24)}`, `abq_${'a'.repeat(23)}/`, 'x'.repeat(10_000)]) {
      expect(v.is(queueIdSchema, bad), bad.slice(0, 40)).toBe(false);
    }
  });

  it('reads a queued item and a 202 answer, ignoring fields a later proxy adds', () => {
    const id = `abq_${'0'.repeat(24)}`;
    const item = { id, status: 'queued', position: 3, model: 'doubao-seedance-1-0-pro-250528', createdAt: 1_800_000_000, taskId: null, error: null, later: 1 };
    expect(v.parse(queueItemSchema, item)).not.toHaveProperty('later');
    const answer = v.parse(queuedCreateSchema, { id, object: 'queued_create', status: 'queued', position: 1, arkbridge: { cost: 1.5, currency: 'CNY', priced: true } });
    expect(answer.position).toBe(1);
    expect(v.is(queueItemSchema, { ...item, position: 0 })).toBe(false);
    expect(v.is(queueItemSchema, { ...item, status: 'running' })).toBe(false);
  });
});
