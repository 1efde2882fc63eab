import { describe, expect, it } from 'vitest';
import { admin, create, finishTasks } from '../../testing/gateway-test-steps';
import { appFetch, call, type Member } from '../../testing/proxy-test-client';
import { member, memberRows, MODEL, noUpstream } from '../../testing/proxy-test-steps';
import { revoke } from '../../testing/sharing-test-steps';

/** The team gallery (docs/team-library.md): who publishes, who sees, who removes. */

/** A completed, kept task of `m` (5 s text to video). */
async function finished(m: Member): Promise<string> {
  const created = await create(m);
  expect(created.status).toBe(200);
  await finishTasks(m);
  return created.body.id as string;
}

const publish = (m: Member | string, taskId: string) => call(m, 'POST', '/proxy/gallery', { taskId });

describe('publishing', () => {
  it("the creator publishes a completed task: 201 with the create body, the cost and a fresh signed address of the kept video", async () => {
    const m = await member('Maker');
    const taskId = await finished(m);
    const r = await noUpstream(() => publish(m, taskId));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toEqual({
      taskId,
      member: { id: m.id, name: 'Maker' },
      model: MODEL,
      request: { model: MODEL, prompt: 'a kite', duration: 5 },
      cost: expect.any(Number),
      currency: expect.any(String),
      keptUrl: expect.stringMatching(new RegExp(`^https://proxy\\.test/media/o-${m.id}-${taskId}\\?expires=\\d+&sig=[0-9a-f]{64}$`)),
      keptUntil: expect.any(Number),
      publishedAt: expect.any(String),
    });
    const video = await appFetch(r.body.keptUrl.replace('https://proxy.test', ''));
    expect([video.status, video.headers.get('content-type')]).toEqual([200, 'video/mp4']);
    // Publishing again answers the item as it is.
    const again = await publish(m, taskId);
    expect([again.status, again.body.publishedAt]).toEqual([200, r.body.publishedAt]);
  });

  it("refuses another member's task (404), a task not completed (409), and a revoked member (401)", async () => {
    const m = await member('maker');
    const other = await member('other');
    const taskId = await finished(m);
    expect([(await publish(other, taskId)).status, (await publish(other, taskId)).body.error.code]).toEqual([404, 'task_not_found']);
    const running = await create(m);
    const r = await publish(m, running.body.id);
    expect([r.status, r.body.error.code]).toEqual([409, 'task_not_completed']);
    await revoke(m);
    expect((await publish(m, taskId)).status).toBe(401);
  });

  it('a task from before the proxy kept create bodies answers what is known: no request', async () => {
    const m = await member('old');
    const taskId = await finished(m);
    await memberRows(m, 'UPDATE tasks SET request = NULL WHERE id = ?', taskId);
    const r = await publish(m, taskId);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ taskId, model: MODEL, request: null });
  });
});

describe('the gallery', () => {
  it('any member lists it newest first, paged with limit and before', async () => {
    const a = await member('a');
    const b = await member('b');
    const viewer = await member('viewer');
    const t1 = await finished(a);
    const t2 = await finished(b);
    expect((await publish(a, t1)).status).toBe(201);
    expect((await publish(b, t2)).status).toBe(201);
    const first = await noUpstream(() => call(viewer, 'GET', '/proxy/gallery?limit=1'));
    expect(first.status).toBe(200);
    expect(first.body.items.map((i: { taskId: string }) => i.taskId)).toEqual([t2]);
    expect(first.body.items[0].member).toEqual({ id: b.id, name: 'b' });
    expect(first.body.next).toEqual(expect.any(String));
    const second = await call(viewer, 'GET', `/proxy/gallery?limit=1&before=${encodeURIComponent(first.body.next)}`);
    expect(second.body.items.map((i: { taskId: string }) => i.taskId)).toEqual([t1]);
  });

  it.each([['limit=0', 'limit'], ['limit=x', 'limit'], ['before=nope', 'before'], ['page=2', 'page']])('refuses ?%s with 400 naming it', async (query, param) => {
    const m = await member();
    const r = await call(m, 'GET', `/proxy/gallery?${query}`);
    expect([r.status, r.body.error.param]).toEqual([400, param]);
  });

  it('needs a member token', async () => {
    expect((await call(null, 'GET', '/proxy/gallery')).status).toBe(401);
  });
});

describe('removing', () => {
  it('only the publisher removes an item (another member: 403), and the removal is audited', async () => {
    const a = await member('a');
    const b = await member('b');
    const taskId = await finished(a);
    await publish(a, taskId);
    const refused = await call(b, 'DELETE', `/proxy/gallery/${taskId}`);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'not_publisher']);
    expect((await call(a, 'DELETE', `/proxy/gallery/${taskId}`)).status).toBe(204);
    expect((await call(a, 'DELETE', `/proxy/gallery/${taskId}`)).status).toBe(404);
    const listed = await call(b, 'GET', '/proxy/gallery?limit=100');
    expect(listed.body.items.map((i: { taskId: string }) => i.taskId)).not.toContain(taskId);
    const { body } = await admin('GET', '/admin/audit?limit=20');
    expect(body.entries).toContainEqual(expect.objectContaining({ actor: a.id, action: 'gallery.remove', target: taskId }));
  });

  it('the admin removes any item with DELETE /admin/gallery/:taskId, audited', async () => {
    const a = await member('a');
    const taskId = await finished(a);
    await publish(a, taskId);
    expect((await admin('DELETE', `/admin/gallery/${taskId}`)).status).toBe(204);
    expect((await admin('DELETE', `/admin/gallery/${taskId}`)).status).toBe(404);
    const { body } = await admin('GET', '/admin/audit?limit=20');
    expect(body.entries).toContainEqual(expect.objectContaining({ actor: 'admin', action: 'gallery.remove', target: taskId }));
    // A member token is no admin credential.
    await publish(a, taskId);
    expect((await call(a, 'DELETE', `/admin/gallery/${taskId}`)).status).toBe(401);
  });

  it("a revoked publisher's item stays in the gallery; the admin can remove it", async () => {
    const a = await member('a');
    const b = await member('b');
    const taskId = await finished(a);
    await publish(a, taskId);
    await revoke(a);
    expect((await call(b, 'GET', '/proxy/gallery?limit=100')).body.items.map((i: { taskId: string }) => i.taskId)).toContain(taskId);
    expect((await call(a, 'DELETE', `/proxy/gallery/${taskId}`)).status).toBe(401);
    expect((await admin('DELETE', `/admin/gallery/${taskId}`)).status).toBe(204);
  });
});
