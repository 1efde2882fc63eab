import * as v from 'valibot';
import { recordOf, strictObjectMessage } from './validation';

/**
 * Shapes of the team library (docs/team-library.md): shared groups with roles, transfer of a
 * member's groups, and the team gallery. One schema per shape; the proxy checks bodies with them
 * and its OpenAPI document is generated from them.
 */

/** What a grantee may do with a shared group; `none` takes a role away (or excludes a member from the team's). */
export const SHARE_ROLES = ['none', 'viewer', 'editor'] as const;
export type ShareRole = (typeof SHARE_ROLES)[number];
/** A member's standing on a group: its owner, a role, or nothing. */
export type GroupAccess = ShareRole | 'owner';

const role = v.picklist(SHARE_ROLES, 'must be none, viewer or editor');
const iso = v.pipe(v.string(), v.description('ISO 8601 UTC.'));
const memberRef = v.object({ id: v.string(), name: v.string() });

/** `PUT /proxy/groups/{groupId}/sharing`: each field optional; a member entry overrides the team role for that member. */
export const sharingChangeSchema = v.strictObject(
  {
    team: v.optional(role),
    members: v.optional(
      v.pipe(
        recordOf(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')), role),
        v.check((m) => Object.keys(m).length <= 1000, 'must name at most 1000 members'),
      ),
    ),
  },
  strictObjectMessage('is not a field of this call'),
);
export type SharingChange = v.InferOutput<typeof sharingChangeSchema>;

/** `GET`, `PUT /proxy/groups/{groupId}/sharing`: who may use a group, and how. */
export const groupSharingSchema = v.pipe(
  v.object({
    groupId: v.string(),
    name: v.string(),
    owner: memberRef,
    team: role,
    members: v.pipe(recordOf(v.string(), role), v.description('Per-member roles, overriding `team` (`none` excludes a member from a team share).')),
  }),
  v.metadata({ ref: 'GroupSharing' }),
);
export type GroupSharing = v.InferOutput<typeof groupSharingSchema>;

/** One group another member shares with the caller. */
export const sharedGroupSchema = v.object({
  groupId: v.string(),
  name: v.string(),
  owner: memberRef,
  role: v.picklist(['viewer', 'editor']),
  sharedAt: iso,
});
export type SharedGroup = v.InferOutput<typeof sharedGroupSchema>;

/** `GET /proxy/shared`: the groups others share with the caller. */
export const sharedGroupListSchema = v.object({ groups: v.array(sharedGroupSchema) });

/** `GET /proxy/team`: the team's active members other than the caller (whom to share with). */
export const teamMemberListSchema = v.object({ members: v.array(memberRef) });

/** `POST /admin/members/{id}/transfer`. */
export const transferSchema = v.strictObject(
  { to: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')) },
  strictObjectMessage('is not a field of this call'),
);

/** The answer of `POST /admin/members/{id}/transfer`: what moved. */
export const transferAnswerSchema = v.object({ groups: v.pipe(v.number(), v.integer()), assets: v.pipe(v.number(), v.integer()) });

/** `GET /admin/members/{id}/groups`: a member's groups and their sharing (the console's member page). */
export const memberGroupListSchema = v.object({
  groups: v.array(
    v.object({
      groupId: v.string(),
      name: v.pipe(v.nullable(v.string()), v.description('null when the service could not be asked.')),
      team: role,
      members: recordOf(v.string(), role),
    }),
  ),
});
export type MemberGroupList = v.InferOutput<typeof memberGroupListSchema>;

// --- the gallery ---

/** `POST /proxy/gallery`. */
export const galleryPublishSchema = v.strictObject(
  { taskId: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(128, 'must be at most 128 characters')) },
  strictObjectMessage('is not a field of this call'),
);

/** One published video. */
export const galleryItemSchema = v.pipe(
  v.object({
    taskId: v.string(),
    member: memberRef,
    model: v.string(),
    request: v.pipe(v.nullable(recordOf(v.string(), v.unknown())), v.description('The create body as the proxy sent it; null for a task older than the record of it.')),
    cost: v.number(),
    currency: v.string(),
    keptUrl: v.pipe(v.nullable(v.string()), v.description('A fresh signed `/media` address of the kept video; null when none is kept.')),
    keptUntil: v.pipe(v.nullable(v.number()), v.description('Unix seconds.')),
    publishedAt: iso,
  }),
  v.metadata({ ref: 'GalleryItem' }),
);
export type GalleryItem = v.InferOutput<typeof galleryItemSchema>;

/** `GET /proxy/gallery`, newest first. */
export const galleryListSchema = v.object({
  items: v.array(galleryItemSchema),
  next: v.pipe(v.nullable(v.string()), v.description('`before` for the next page; null on the last.')),
});

/** The query of `GET /proxy/gallery`. */
export const galleryQuerySchema = v.strictObject(
  {
    limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/, 'must be an integer from 1 to 100'), v.transform(Number), v.minValue(1, 'must be an integer from 1 to 100'), v.maxValue(100, 'must be an integer from 1 to 100')), '20'),
    before: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}~[\x21-\x7e]{1,128}$/, 'must be the `next` of a previous page'))),
  },
  strictObjectMessage('is not a parameter of this call'),
);
