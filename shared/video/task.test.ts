import { describe, expect, it } from 'vitest';
import { invalidParameter, isFinished, TASK_STATUSES, videoError } from './task';

describe('TASK_STATUSES and isFinished', () => {
  it('list the five task statuses', () => {
    expect(TASK_STATUSES).toEqual(['queued', 'in_progress', 'completed', 'failed', 'unknown']);
  });

  it('treats completed and failed as final', () => {
    expect(isFinished('completed')).toBe(true);
    expect(isFinished('failed')).toBe(true);
  });

  it('keeps polling queued, in_progress and unknown', () => {
    expect(isFinished('queued')).toBe(false);
    expect(isFinished('in_progress')).toBe(false);
    expect(isFinished('unknown')).toBe(false);
  });
});

describe('videoError', () => {
  it('builds {error: {code, message, type, param}}', () => {
    expect(videoError('asset_not_ready', 'wait', 'invalid_request_error', 'content[0].image_url')).toEqual({
      error: { code: 'asset_not_ready', message: 'wait', type: 'invalid_request_error', param: 'content[0].image_url' },
    });
  });

  it('omits param when not given', () => {
    const error = videoError('task_not_found', 'no such task', 'invalid_request_error');
    expect(error).toEqual({ error: { code: 'task_not_found', message: 'no such task', type: 'invalid_request_error' } });
    expect('param' in error.error).toBe(false);
  });
});

describe('invalidParameter', () => {
  it('uses code invalid_parameter and type invalid_request_error, with param naming the field', () => {
    expect(invalidParameter('content[2].image_url', 'content[2].image_url: must be an https:// URL')).toEqual({
      error: {
        code: 'invalid_parameter',
        message: 'content[2].image_url: must be an https:// URL',
        type: 'invalid_request_error',
        param: 'content[2].image_url',
      },
    });
  });
});
