import * as v from 'valibot';
import { type GalleryItem, type GroupSharing, type SharedGroup, sharingChangeSchema } from '@@/shared';
import type { ProxiedVideoTask } from '@/lib/proxy/task-annotation';

/**
 * The team library's routes of the fake proxy (FakeProxy hands them here): a group's sharing
 * (`GET`/`PUT /proxy/groups/:id/sharing`), `GET /proxy/shared`, `GET /proxy/team`, and the gallery
 * (`GET`/`POST /proxy/gallery`, `DELETE /proxy/gallery/:taskId`), with the proxy's refusals
 * (docs/team-library.md on the proxy's branch). Bodies are checked with the shared schemas.
 */

/** The fake member (FakeProxy's TOKEN is this member's). */
export const ME = { id: 'm0123456789abcdef', name: 'Ada' };

export interface TeamContext {
  /** The library's groups (FakeProxy.groups): a group the member may share. */
  groups: Map<string, { Id: string; Name: string }>;
  tasks: Map<string, ProxiedVideoTask>;
}

export class FakeTeam {
  /** `GET /proxy/team`. */
  members: { id: string; name: string }[] = [];
  /** `GET /proxy/shared`: what others share with the member. */
  shared: SharedGroup[] = [];
  /** Sharing of groups the member owns or holds a role on, by group id. */
  readonly sharing = new Map<string, GroupSharing>();
  /** Real-person groups (shared as viewer only). */
  readonly liveness = new Set<string>();
  /** The gallery, newest first. */
  gallery: GalleryItem[] = [];
  /** The create bodies the proxy recorded, by task id (a gallery item's `request`). */
  readonly requests = new Map<string, Record<string, unknown>>();
  /** false: a proxy from before the team library (its routes are 404 `not_found`). */
  supported = true;

  /** The answer to a team-library route, or null when `path` is not one. */
  answer(method: string, url: URL, body: any, context: TeamContext): Response | null {
    const path = url.pathname;
    const sharing = /^\/proxy\/groups\/([^/]+)\/sharing$/.exec(path);
    const galleryItem = /^\/proxy\/gallery\/([^/]+)$/.exec(path);
    if (!sharing && !galleryItem && !['/proxy/shared', '/proxy/team', '/proxy/gallery'].includes(path)) return null;
    if (!this.supported) return refuse(404, 'not_found', `${method} ${path} is not a route of the proxy.`);
    if (sharing) return this.#sharing(method, decodeURIComponent(sharing[1]!), body, context);
    if (galleryItem && method === 'DELETE') return this.#unpublish(decodeURIComponent(galleryItem[1]!));
    if (path === '/proxy/shared' && method === 'GET') return json(200, { groups: this.shared });
    if (path === '/proxy/team' && method === 'GET') return json(200, { members: this.members });
    if (path === '/proxy/gallery' && method === 'GET') return this.#list(url);
    if (path === '/proxy/gallery' && method === 'POST') return this.#publish(body, context);
    return refuse(404, 'not_found', `${method} ${path} is not a route of the proxy.`);
  }

  #sharing(method: string, groupId: string, body: any, context: TeamContext): Response {
    const own = context.groups.get(groupId);
    const current = this.sharing.get(groupId) ?? (own && !this.shared.some((s) => s.groupId === groupId) ? { groupId, name: own.Name, owner: ME, team: 'none' as const, members: {} } : null);
    if (!current) return refuse(404, 'group_not_found', `No group ${groupId}.`);
    if (method === 'GET') return json(200, current);
    if (method !== 'PUT') return refuse(404, 'not_found', 'No such route.');
    if (current.owner.id !== ME.id) return refuse(403, 'not_owner', 'Only the group\'s owner changes its sharing.');
    const read = v.safeParse(sharingChangeSchema, body);
    if (!read.success) {
      const issue = read.issues[0];
      const param = v.getDotPath(issue) ?? 'body';
      return refuse(400, 'invalid_parameter', `${param}: ${issue.message}`, param);
    }
    const change = read.output;
    const roles = [change.team, ...Object.values(change.members ?? {})];
    if (this.liveness.has(groupId) && roles.includes('editor')) return refuse(400, 'invalid_parameter', 'team: a real-person group can be shared as viewer only', 'team');
    for (const id of Object.keys(change.members ?? {})) {
      if (!this.members.some((m) => m.id === id)) return refuse(400, 'invalid_parameter', `members.${id}: is not a member of the team`, `members.${id}`);
    }
    const next: GroupSharing = { ...current, team: change.team ?? current.team, members: { ...current.members, ...change.members } };
    this.sharing.set(groupId, next);
    return json(200, next);
  }

  #list(url: URL): Response {
    const limit = Number(url.searchParams.get('limit') ?? '20');
    const before = url.searchParams.get('before');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return refuse(400, 'invalid_parameter', 'limit: must be an integer from 1 to 100', 'limit');
    const start = before ? Number(before.split('~')[0]) : 0;
    const items = this.gallery.slice(start, start + limit);
    const end = start + items.length;
    return json(200, { items, next: end < this.gallery.length ? `${end}~${this.gallery[end - 1]!.taskId}` : null });
  }

  #publish(body: any, context: TeamContext): Response {
    const taskId = body?.taskId;
    if (typeof taskId !== 'string' || !taskId) return refuse(400, 'invalid_parameter', 'taskId: must be a string', 'taskId');
    const already = this.gallery.find((i) => i.taskId === taskId);
    if (already) return json(200, already);
    const task = context.tasks.get(taskId);
    if (!task) return refuse(404, 'task_not_found', `No task ${taskId} of yours.`);
    if (task.status !== 'completed') return refuse(409, 'task_not_completed', 'The task has not completed.');
    const item: GalleryItem = {
      taskId,
      member: ME,
      model: task.model,
      request: this.requests.get(taskId) ?? null,
      cost: 3.67,
      currency: 'CNY',
      keptUrl: `https://proxy.test/media/kept-${taskId}?sig=1`,
      keptUntil: 2_000_000_000,
      publishedAt: new Date(0).toISOString(),
    };
    this.gallery.unshift(item);
    return json(201, item);
  }

  #unpublish(taskId: string): Response {
    const item = this.gallery.find((i) => i.taskId === taskId);
    if (!item) return refuse(404, 'gallery_item_not_found', `${taskId} is not in the gallery.`);
    if (item.member.id !== ME.id) return refuse(403, 'not_publisher', 'Another member published it.');
    this.gallery = this.gallery.filter((i) => i !== item);
    return new Response(null, { status: 204 });
  }
}

/** A gallery item as another member (or the member) published it. */
export const galleryItem = (over: Partial<GalleryItem> & { taskId: string }): GalleryItem => ({
  member: { id: 'm00000000000000b0', name: 'Ben' },
  model: 'm',
  request: null,
  cost: 1.5,
  currency: 'CNY',
  keptUrl: `https://proxy.test/media/${over.taskId}?sig=1`,
  keptUntil: 2_000_000_000,
  publishedAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const refuse = (status: number, code: string, message: string, param?: string) =>
  json(status, { error: { code, message, ...(param ? { param } : {}) } });
