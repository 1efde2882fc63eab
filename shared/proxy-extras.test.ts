import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { videoTaskAnswerSchema } from './proxy-extras';

const TASK = {
  id: 'cgt-1',
  model: 'doubao-seedance-2-0-260128',
  status: 'completed',
  metadata: { url: 'https://service.example/v.mp4' },
  arkbridge: { cost: 1.2, currency: 'CNY', priced: true },
};

describe('videoTaskAnswerSchema', () => {
  it('reads metadata.last_frame_url (return_last_frame) beside the video link', () => {
    const frame = { ...TASK, metadata: { ...TASK.metadata, last_frame_url: 'https://service.example/f.png' } };
    const read = v.parse(videoTaskAnswerSchema, frame);
    expect(read.metadata?.last_frame_url).toBe('https://service.example/f.png');
    expect(v.parse(videoTaskAnswerSchema, TASK).metadata).toEqual({ url: 'https://service.example/v.mp4' });
    expect(v.safeParse(videoTaskAnswerSchema, { ...TASK, metadata: { ...TASK.metadata, last_frame_url: 7 } }).success).toBe(false);
  });
});
