import { afterEach, describe, expect, it } from 'vitest';
import type { VideoCreateBody } from '@@/shared';
import { setLocale } from '@/lib/i18n/translate';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import {
  describeParam,
  downloadName,
  elapsedMs,
  formatElapsed,
  formatKeptDate,
  humanize,
  isNamed,
  isSettled,
  keepNote,
  keptVideo,
  linkHoursLeft,
  namedParam,
  progressValue,
  requestSummary,
  statusLabel,
  statusTone,
  videoAddress,
} from '@/lib/tasks/task-presentation';

afterEach(() => setLocale('en'));

const body: VideoCreateBody = {
  model: 'doubao-seedance-2-0-260128',
  content: [
    { type: 'text', text: 'A cat' },
    { type: 'image_url', image_url: { url: 'https://a.example/1.png' }, role: 'reference_image' },
    { type: 'image_url', image_url: { url: 'asset://asset-2' }, role: 'reference_image' },
    { type: 'video_url', video_url: { url: 'https://a.example/v.mp4' }, role: 'reference_video' },
    { type: 'audio_url', audio_url: { url: 'https://a.example/a.mp3' }, role: 'reference_audio' },
  ],
  resolution: '720p',
};

const frames: VideoCreateBody = {
  model: 'doubao-seedance-1-0-pro-250528',
  content: [
    { type: 'image_url', image_url: { url: 'https://a.example/first.png' }, role: 'first_frame' },
    { type: 'text', text: 'A dog' },
    { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' }, role: 'last_frame' },
  ],
};

const task = (over: Partial<TaskRecord>): TaskRecord => ({
  localId: 'l1',
  model: body.model,
  body,
  status: 'queued',
  progress: 0,
  idempotencyKey: 'k',
  notified: false,
  createdAt: 1_000_000,
  ...over,
});

describe('the task state machine, as shown', () => {
  it('labels every status', async () => {
    expect(statusLabel({ status: 'submitting', progress: 0 })).toBe('Sending…');
    expect(statusLabel({ status: 'queued', progress: 0 })).toBe('Queued');
    expect(statusLabel({ status: 'in_progress', progress: 42.4 })).toBe('Generating 42%');
    expect(statusLabel({ status: 'in_progress', progress: 140 })).toBe('Generating 100%');
    expect(statusLabel({ status: 'completed', progress: 100 })).toBe('Completed');
    expect(statusLabel({ status: 'failed', progress: 3 })).toBe('Failed');
    expect(statusLabel({ status: 'unknown', progress: 10 })).toBe('Checking again later');
    await setLocale('zh-CN');
    expect(statusLabel({ status: 'unknown', progress: 10 })).toBe('稍后再次查询');
  });

  it('only completed and failed are final; each status has a tone', () => {
    expect((['submitting', 'queued', 'in_progress', 'unknown', 'completed', 'failed'] as const).map(isSettled)).toEqual([false, false, false, false, true, true]);
    expect(statusTone('completed')).toBe('success');
    expect(statusTone('failed')).toBe('error');
    expect(statusTone('unknown')).toBe('warning');
    expect(statusTone('in_progress')).toBe('info');
  });

  it('progress bar: a value while queued or generating, full when done, indeterminate otherwise', () => {
    expect(progressValue({ status: 'in_progress', progress: 40 })).toBe(40);
    expect(progressValue({ status: 'queued', progress: 0 })).toBe(0);
    expect(progressValue({ status: 'completed', progress: 99 })).toBe(100);
    expect(progressValue({ status: 'submitting', progress: 0 })).toBeNull();
    expect(progressValue({ status: 'unknown', progress: 30 })).toBeNull();
  });

  it('elapsed time runs until completion', () => {
    expect(elapsedMs(task({ status: 'in_progress' }), 1_045_000)).toBe(45_000);
    expect(elapsedMs(task({ status: 'completed', completedAt: 1_190_000 }), 9_999_999)).toBe(190_000);
    expect(elapsedMs(task({ status: 'failed' }), 9_999_999)).toBeNull();
    expect(formatElapsed(45_000)).toBe('45 s');
    expect(formatElapsed(185_000)).toBe('3 min 05 s');
    expect(formatElapsed(3_725_000)).toBe('1 h 02 min');
  });

  it('the result link: hours left of about 24, then expired', () => {
    expect(linkHoursLeft({ completedAt: 0 }, 3600_000)).toBe(23);
    expect(linkHoursLeft({ completedAt: 0 }, 25 * 3600_000)).toBe(0);
    expect(linkHoursLeft({}, 0)).toBeNull();
    expect(downloadName({ localId: 'l', taskId: 'cgt-2025/1' })).toBe('arkbridge-cgt-2025_1.mp4');
  });
});

describe('describeParam', () => {
  it('names content elements by role, counted per role', () => {
    expect(describeParam('content[1].image_url', body)).toBe('Reference image 1');
    expect(describeParam('content[2].image_url', body)).toBe('Reference image 2');
    expect(describeParam('content[2]', body)).toBe('Reference image 2');
    expect(describeParam('content[3].video_url', body)).toBe('Reference video 1');
    expect(describeParam('content[4].audio_url', body)).toBe('Reference audio 1');
    expect(describeParam('content[0].text', body)).toBe('Prompt');
    expect(describeParam('content[0].image_url', frames)).toBe('First frame');
    expect(describeParam('content[2].image_url.url', frames)).toBe('Last frame');
    expect(describeParam('content[1]', frames)).toBe('Prompt');
  });

  it('names parameters, the prompt and compatibility fields; leaves the rest as they are', async () => {
    expect(describeParam('prompt')).toBe('Prompt');
    expect(describeParam('resolution')).toBe('Resolution');
    expect(describeParam('generate_audio')).toBe('Generate audio');
    expect(describeParam('images[1]')).toBe('Reference image 2');
    expect(describeParam('content[9].image_url', body)).toBe('Element 10');
    expect(describeParam('Idempotency-Key')).toBe('Idempotency-Key');
    await setLocale('zh-CN');
    expect(describeParam('content[2].image_url', body)).toBe('参考图片 2');
  });

  it('finds the element an error names, and words the message', () => {
    const message = 'InvalidParameter: content[2].image_url: resource download failed';
    expect(namedParam(message)).toBe('content[2].image_url');
    expect(namedParam('resolution: must be one of 480p, 720p')).toBe('resolution');
    expect(namedParam('The service is busy')).toBeNull();
    expect(humanize(message, body)).toBe('InvalidParameter: Reference image 2: resource download failed');
    expect(humanize('content[3].video_url: doubao-seedance-2-0-260128 takes at most 3 reference videos', body, { id: 'doubao-seedance-2-0-260128', label: 'Seedance 2.0' })).toBe(
      'Reference video 1: Seedance 2.0 takes at most 3 reference videos',
    );
  });

  it('summarises the request and marks the named element', () => {
    const lines = requestSummary(body);
    expect(lines.map((l) => [l.label, l.value])).toEqual([
      ['Prompt', 'A cat'],
      ['Reference image 1', 'https://a.example/1.png'],
      ['Reference image 2', 'asset://asset-2'],
      ['Reference video 1', 'https://a.example/v.mp4'],
      ['Reference audio 1', 'https://a.example/a.mp3'],
      ['Resolution', '720p'],
    ]);
    expect(lines.filter((l) => isNamed(l, 'content[2].image_url')).map((l) => l.label)).toEqual(['Reference image 2']);
    expect(lines.filter((l) => isNamed(l, 'resolution')).map((l) => l.label)).toEqual(['Resolution']);
    expect(lines.filter((l) => isNamed(l, null))).toEqual([]);
    expect(requestSummary(frames)[2]).toEqual({ param: 'content[2]', label: 'Last frame', value: 'inline image/png, 0 KB' });
  });

  it('names a library reference by its asset name when it is known', () => {
    const lines = requestSummary(body, new Map([['asset-2', 'Cat photo']]));
    expect(lines[2]).toEqual({ param: 'content[2]', label: 'Reference image 2', value: 'Cat photo (library, asset://asset-2)' });
    expect(requestSummary(body, new Map([['other', 'Dog']]))[2]!.value).toBe('asset://asset-2');
  });
});

describe('the proxy’s kept copy', () => {
  const KEPT = 'https://proxy.test/media/o-m-t?expires=1&sig=x';
  const until = Date.UTC(2026, 11, 23, 12) / 1000;
  const now = Date.UTC(2026, 10, 23, 12);

  it('is played and downloaded rather than the service’s link while it is kept', () => {
    const task = { videoUrl: 'https://cdn.example.com/v.mp4', keptUrl: KEPT, keptUntil: until };
    expect(keptVideo(task, now)).toEqual({ url: KEPT, until });
    expect(videoAddress(task, now)).toBe(KEPT);
    expect(videoAddress(task, until * 1000)).toBe('https://cdn.example.com/v.mp4');
    expect(videoAddress({ videoUrl: 'https://cdn.example.com/v.mp4' }, now)).toBe('https://cdn.example.com/v.mp4');
    expect(keptVideo({ keptUrl: KEPT }, now)).toBeNull();
  });

  it('says its last day, and its state, in the member’s language', async () => {
    expect(formatKeptDate(until)).toBe('23 Dec 2026');
    expect(keepNote({ keep: 'pending' })).toBe('Keeping a copy…');
    expect(keepNote({ keep: 'failed', keepError: 'The service answered 403.' })).toBe('No copy was kept: The service answered 403. Download the video now.');
    expect(keepNote({ keep: 'deleted' })).toBe('Copy deleted.');
    expect(keepNote({})).toBeNull();
    await setLocale('zh-CN');
    expect(formatKeptDate(until)).toBe('2026年12月23日');
    expect(keepNote({ keep: 'pending' })).toBe('正在保留副本…');
  });
});
