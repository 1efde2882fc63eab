import { describe, expect, inject, it } from 'vitest';
import { api, helper, newAsset, newGroup, sandboxFetch, settled, sleep, uniqueTag, v1, waitFor } from './testing/sandbox-test-client';

/**
 * Everything that moves the sandbox clock (`POST /sandbox/clock`) lives in this one file (the clock
 * is the sandbox's, shared by all its tests). Each test sets up what it needs, so any one runs alone. The clock
 * only changes the sandbox's notion of time; signatures are still checked against real time.
 */

const media = inject('mediaBaseUrl');
const MODEL = 'doubao-seedance-2-0-260128';

async function advance(seconds: number) {
  const res = await helper('POST', '/sandbox/clock', { advanceSeconds: seconds });
  expect(res.status).toBe(200);
  return res.body as { offsetSeconds: number; now: string };
}

const getTask = (id: string) => v1('GET', `/v1/video/generations/${id}`);

describe('POST /sandbox/clock', () => {
  it('moves the clock forward and reports the total offset and the new time', async () => {
    const start = await advance(0);
    const moved = await advance(10);
    expect(moved.offsetSeconds).toBe(start.offsetSeconds + 10);
    const shown = Date.parse(moved.now);
    expect(shown).toBeGreaterThanOrEqual(Date.now() + moved.offsetSeconds * 1000 - 5000);
    expect(shown).toBeLessThanOrEqual(Date.now() + moved.offsetSeconds * 1000 + 5000);
  });

  it('does not change signature checking, which uses real time', async () => {
    await advance(3600);
    expect((await api('ListAssetGroups', {})).status).toBe(200);
  });
});

describe('portrait session expiry', () => {
  it('a pending session is still pending at 299 s and expired at 301 s: Resolve is a ValidationError about expiry', async () => {
    const s = (await api('CreatePortraitSession', {})).result;
    await advance(299);
    const pending = await api('ResolvePartnerToken', { PartnerToken: s.PartnerToken });
    expect(pending.error?.Code).toBe('ValidationError');
    expect(pending.error?.Message).not.toMatch(/expir/i);

    await advance(2);
    const expired = await api('ResolvePartnerToken', { PartnerToken: s.PartnerToken });
    expect(expired.status).toBe(200);
    expect(expired.error?.Code).toBe('ValidationError');
    expect(expired.error?.Message).toMatch(/expired/i);
    expect(expired.envelope).not.toHaveProperty('Result');
  });

  it('after expiry the H5 page says the code expired, and completing it is refused (410)', async () => {
    const s = (await api('CreatePortraitSession', {})).result;
    await advance(301);
    const page = await sandboxFetch(s.H5Link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/expired/i);
    expect(html).not.toContain('id="consent"');

    const late = await helper('POST', '/sandbox/portrait/complete', { H5Link: s.H5Link, GroupName: 'too late' });
    expect(late.status).toBe(410);
    const resolve = await api('ResolvePartnerToken', { PartnerToken: s.PartnerToken });
    expect(resolve.error?.Message).toMatch(/expired/i);
  });

  it('a session completed on the phone but not resolved before ExpireTime expires too', async () => {
    const s = (await api('CreatePortraitSession', {})).result;
    expect((await helper('POST', '/sandbox/portrait/complete', { H5Link: s.H5Link, GroupName: 'slow caller' })).status).toBe(200);
    await advance(301);
    const res = await api('ResolvePartnerToken', { PartnerToken: s.PartnerToken });
    expect(res.error?.Code).toBe('ValidationError');
    expect(res.error?.Message).toMatch(/expired/i);
    expect((await api('ListAssetGroups', { Filter: { Name: 'slow caller' } })).result.TotalCount).toBe(0);
  });

  it('a session resolved before expiry keeps its group after the session expires', async () => {
    const s = (await api('CreatePortraitSession', {})).result;
    await helper('POST', '/sandbox/portrait/complete', { H5Link: s.H5Link, GroupName: 'on time' });
    const resolved = await api('ResolvePartnerToken', { PartnerToken: s.PartnerToken });
    await advance(301);
    expect((await api('GetAssetGroup', { Id: resolved.result.GroupId })).result.GroupType).toBe('LivenessFace');
  });
});

/** A text-to-video task moved to completion with the sandbox clock; answers its result link. */
async function completedTaskUrl(): Promise<string> {
  const created = await v1('POST', '/v1/video/generations', { model: MODEL, prompt: 'a finished task' });
  await advance(10);
  const done = await getTask(created.body.id);
  expect(done.body.status).toBe('completed');
  return done.body.metadata.url as string;
}

describe('video task lifecycle', () => {

  it('queued -> in_progress with rising progress -> completed with metadata.url; completed_at only when finished', async () => {
    // The clock moves only when the test moves it: each phase is read where the test put the task,
    // however long the machine takes between two calls.
    await helper('POST', '/sandbox/clock', { advanceSeconds: 0, freeze: true });
    try {
      await lifecycle();
    } finally {
      await helper('POST', '/sandbox/clock', { advanceSeconds: 0, freeze: false });
    }
  });

  async function lifecycle(): Promise<void> {
    const created = await v1('POST', '/v1/video/generations', { model: MODEL, prompt: 'a lighthouse at dusk' });
    expect(created.status).toBe(200);
    const id = created.body.id as string;

    const queued = await getTask(id);
    expect(queued.body).toMatchObject({ id, status: 'queued', progress: 0 });
    expect(queued.body).not.toHaveProperty('completed_at');
    expect(queued.body).not.toHaveProperty('metadata');
    expect((await sandboxFetch(`/sandbox/videos/${id}.mp4`)).status).toBe(404);

    await advance(1);
    const first = await getTask(id);
    expect(first.body.status).toBe('in_progress');
    expect(first.body.progress).toBeGreaterThan(0);
    expect(first.body.progress).toBeLessThan(100);
    expect(first.body).not.toHaveProperty('completed_at');
    expect(first.body).not.toHaveProperty('metadata');

    await advance(1.5);
    const second = await getTask(id);
    expect(second.body.status).toBe('in_progress');
    expect(second.body.progress).toBeGreaterThan(first.body.progress);
    expect(second.body.progress).toBeLessThan(100);

    await advance(2);
    const done = await getTask(id);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id, task_id: id, object: 'video', model: MODEL, status: 'completed', progress: 100 });
    expect(Number.isInteger(done.body.completed_at)).toBe(true);
    expect(done.body.completed_at).toBeGreaterThanOrEqual(created.body.created_at);
    expect(done.body).not.toHaveProperty('error');
    expect(typeof done.body.metadata.url).toBe('string');

    // A finished task does not change any more.
    await advance(60);
    expect((await getTask(id)).body).toEqual(done.body);
  }

  it('metadata.url serves a real MP4 (video/mp4) with Range support', async () => {
    const completedUrl = await completedTaskUrl();
    expect(completedUrl).toMatch(/^http:\/\/sandbox\.test\/.+\.mp4$/);
    const full = await sandboxFetch(completedUrl);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('video/mp4');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    const bytes = new Uint8Array(await full.arrayBuffer());
    expect(bytes.byteLength).toBeGreaterThan(1000);
    expect(Number(full.headers.get('content-length'))).toBe(bytes.byteLength);
    expect(new TextDecoder().decode(bytes.slice(4, 8))).toBe('ftyp');

    const part = await sandboxFetch(completedUrl, { headers: { Range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${bytes.byteLength}`);
    const partBytes = new Uint8Array(await part.arrayBuffer());
    expect(partBytes).toEqual(bytes.slice(0, 100));

    const tail = await sandboxFetch(completedUrl, { headers: { Range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.slice(-10));

    const beyond = await sandboxFetch(completedUrl, { headers: { Range: `bytes=${bytes.byteLength}-` } });
    expect(beyond.status).toBe(416);
  });

  it('stays queued while a reference is still downloading, however much time passes, then completes', async () => {
    const created = await v1('POST', '/v1/video/generations', {
      model: MODEL,
      content: [{ type: 'text', text: 'slow reference' }, { type: 'image_url', image_url: { url: `${media}/slow/1500/sample.png` }, role: 'reference_image' }],
    });
    expect(created.status).toBe(200);
    await advance(30);
    const waiting = await getTask(created.body.id);
    expect(waiting.body.status).toBe('queued');
    expect(waiting.body.progress).toBe(0);
    const done = await waitFor(() => getTask(created.body.id), (r) => r.body.status !== 'queued', 10_000);
    // The download finished after the clock already passed the generation time.
    expect(['in_progress', 'completed']).toContain(done.body.status);
    await advance(5);
    expect((await getTask(created.body.id)).body.status).toBe('completed');
  });

  it('the typical flow end to end: an Active library asset referenced as asset:// yields a completed video', async () => {
    const assetId = await newAsset(await newGroup(), `${media}/media/sample.png`);
    expect((await settled(assetId)).Status).toBe('Active');
    const created = await v1('POST', '/v1/video/generations', {
      model: MODEL,
      content: [{ type: 'text', text: 'the character waves' }, { type: 'image_url', image_url: { url: `asset://${assetId}` }, role: 'reference_image' }],
    });
    expect(created.status).toBe(200);
    await sleep(10);
    await advance(5);
    const done = await getTask(created.body.id);
    expect(done.body.status).toBe('completed');
    expect((await sandboxFetch(done.body.metadata.url)).status).toBe(200);
  });

  it('the result link expires 24 hours after completion (410), while the task stays completed', async () => {
    const completedUrl = await completedTaskUrl();
    expect((await sandboxFetch(completedUrl)).status).toBe(200);
    await advance(24 * 3600 + 60);
    const gone = await sandboxFetch(completedUrl);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toMatch(/expired/);
  });
});

describe('group timestamps', () => {
  it('list items carry CreateTime and UpdateTime as ISO 8601 UTC; an update moves UpdateTime only', async () => {
    const id = await newGroup();
    const before = (await api('ListAssetGroups', { Filter: { GroupIds: [id] } })).result.Items[0];
    expect(before.CreateTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(before.UpdateTime).toBe(before.CreateTime);
    await advance(2); // timestamps have whole seconds: the sandbox clock moves instead of a sleep
    await api('UpdateAssetGroup', { Id: id, Name: uniqueTag('renamed') });
    const after = (await api('ListAssetGroups', { Filter: { GroupIds: [id] } })).result.Items[0];
    expect(after.CreateTime).toBe(before.CreateTime);
    expect(Date.parse(after.UpdateTime) - Date.parse(before.UpdateTime)).toBeGreaterThanOrEqual(2000);
  });
});
