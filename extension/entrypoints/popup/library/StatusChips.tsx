import type { GroupType, ReadinessStatus } from '@@/shared';
import { t } from '@/lib/i18n/translate';
import { accessOf } from '@/lib/library/group-access';
import type { LocalAssetStatus } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';

const TONES: Record<string, string> = {
  Queued: 'pending',
  Processing: 'pending',
  Preparing: 'pending',
  Active: 'ok',
  Failed: 'bad',
  Unavailable: 'off',
};

/** An asset's status; a record still being sent (Queued) reads "Sending". */
export function StatusChip({ status }: { status: LocalAssetStatus }) {
  return <span class={`chip chip--${TONES[status]}`}>{t(`library.status.${status}`)}</span>;
}

export function ReadinessChip({ status }: { status: ReadinessStatus }) {
  return <span class={`chip chip--${TONES[status]}`}>{t(`library.readiness.${status}`)}</span>;
}

/** Virtual (AIGC) or real-person (LivenessFace) group. */
export function TypeBadge({ type }: { type: GroupType }) {
  return <span class={`badge badge--${type === 'LivenessFace' ? 'person' : 'virtual'}`}>{t(`library.type.${type}`)}</span>;
}

/** A group another member shares: the member's role on it ("Viewer", "Editor"); nothing on their own groups. */
export function RoleBadge({ group }: { group: GroupRecord }) {
  const access = accessOf(group);
  if (access === 'owner') return null;
  return <span class="badge badge--role">{t(`library.role.${access}`)}</span>;
}
