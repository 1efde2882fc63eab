import { describe, expect, it } from 'vitest';
import { failureFrom, isTransient } from '@/lib/proxy/api-failure';
import { budgetRefusalFrom } from '@/lib/proxy/budget-refusal';

const budgetBody = {
  error: {
    code: 'budget_exceeded',
    type: 'insufficient_quota',
    message: 'This task costs 3.672 CNY; 1.2 CNY of your budget is left.',
    scope: 'member',
    remaining: 1.2,
    cost: 3.672,
    currency: 'CNY',
  },
};
const runningBody = { error: { code: 'too_many_running_tasks', type: 'rate_limit_error', message: '3 of 3 tasks are running.', running: 3, maxRunning: 3 } };

describe('budget refusals', () => {
  it('a 402 budget_exceeded is a refusal with its amounts, never retried', () => {
    const failure = failureFrom(402, budgetBody, null);
    expect(failure).toEqual({
      kind: 'rejected',
      status: 402,
      code: 'budget_exceeded',
      message: budgetBody.error.message,
      refusal: { code: 'budget_exceeded', scope: 'member', remaining: 1.2, cost: 3.672, currency: 'CNY' },
    });
    expect(isTransient(failure)).toBe(false);
    expect(failureFrom(402, { error: { ...budgetBody.error, scope: 'team' } }, null)).toMatchObject({ refusal: { scope: 'team' } });
  });

  it('a 429 too_many_running_tasks is a refusal, not the service asking to slow down', () => {
    const failure = failureFrom(429, runningBody, null);
    expect(failure).toMatchObject({ kind: 'rejected', status: 429, code: 'too_many_running_tasks', refusal: { code: 'too_many_running_tasks', running: 3, maxRunning: 3 } });
    expect(isTransient(failure)).toBe(false);
    // The service's own 429 still waits for Retry-After.
    expect(failureFrom(429, { error: { code: 'rate_limited', message: 'Slow down.' } }, '12')).toEqual({ kind: 'rate_limited', message: 'Slow down.', retryAfterMs: 12_000 });
  });

  it('reads what it can of a refusal, nothing of other errors', () => {
    expect(budgetRefusalFrom({ code: 'budget_exceeded', remaining: 'lots', cost: Infinity })).toEqual({ code: 'budget_exceeded', scope: 'member', remaining: null, cost: null, currency: null });
    expect(budgetRefusalFrom({ code: 'too_many_running_tasks', running: -1 })).toEqual({ code: 'too_many_running_tasks', running: null, maxRunning: null });
    expect(budgetRefusalFrom({ code: 'invalid_parameter' })).toBeNull();
    expect(budgetRefusalFrom(null)).toBeNull();
    expect(failureFrom(402, { error: { code: 'payment_required', message: 'x' } }, null)).not.toHaveProperty('refusal');
  });
});
