import { useEffect, useRef, useState } from 'preact/hooks';
import type { ShareRole } from '@@/shared';
import { Banner } from '@/components/Banner';
import { t } from '@/lib/i18n/translate';
import { loadSharing, rolesFor, saveSharing, type MemberChoice, type SharingSetup, sharingProblem } from '@/lib/library/group-sharing';
import { connectedClient } from '@/lib/proxy/connected-client';
import { notConnected, type Problem } from '@/lib/proxy/failure-message';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import '@/lib/i18n/team.en';
import './share-dialog.css';

/**
 * The share dialog of a group the member owns (a chunk loaded on intent): the team's role and each
 * member's (from `GET /proxy/team`; "No access" keeps someone out of a team share), read from the
 * proxy's current sharing (GET) and saved with PUT. A real-person group offers "Can view" only.
 */
export function ShareDialog({ group, onClose }: { group: GroupRecord; onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [setup, setSetup] = useState<SharingSetup | null>(null);
  const [loadProblem, setLoadProblem] = useState<Problem | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const roles = rolesFor(group.type);

  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    const closed = new AbortController();
    void (async () => {
      const connected = await connectedClient();
      if (closed.signal.aborted) return;
      if (!connected) return setLoadProblem(notConnected());
      try {
        const loaded = await loadSharing(connected.client, group.id, closed.signal);
        if (!closed.signal.aborted) setSetup(loaded);
      } catch (error) {
        if (!closed.signal.aborted) setLoadProblem(await sharingProblem(error));
      }
    })();
    return () => closed.abort();
  }, [group.id]);

  const change = (next: Partial<SharingSetup['draft']>) => {
    if (!setup) return;
    setSaved(false);
    setSetup({ ...setup, draft: { ...setup.draft, ...next } });
  };

  async function save() {
    if (!setup || busy) return;
    setBusy(true);
    setProblem(null);
    try {
      const connected = await connectedClient();
      if (!connected) return setProblem(notConnected());
      const result = await saveSharing(connected.client, setup.sharing, setup.draft);
      if (!result.ok) return setProblem(result.problem);
      setSetup({ ...setup, sharing: result.value, draft: { team: result.value.team, members: Object.fromEntries(setup.team.map((m) => [m.id, result.value.members[m.id] ?? 'team'])) } });
      setSaved(true);
    } finally {
      setBusy(false);
    }
  }

  const roleLabel = (role: ShareRole) => t(`share.role.${role}`);
  return (
    <section
      class="share-dialog"
      role="dialog"
      aria-labelledby="share-title"
      aria-busy={!setup && !loadProblem ? 'true' : 'false'}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <h3 id="share-title" ref={heading} tabIndex={-1}>
        {t('share.title', { name: group.name })}
      </h3>
      <p class="muted">{t('share.hint')}</p>
      {group.type === 'LivenessFace' && <p class="muted">{t('share.personViewerOnly')}</p>}
      {loadProblem && (
        <Banner tone="error">
          <p>{t('share.loadFailed', { message: loadProblem.message })}</p>
        </Banner>
      )}
      {!setup && !loadProblem && <p class="muted">{t('share.loading')}</p>}
      {setup && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <div class="share-row">
            <label for="share-team">{t('share.team')}</label>
            <select id="share-team" value={setup.draft.team} onChange={(e) => change({ team: e.currentTarget.value as ShareRole })}>
              {roles.map((role) => (
                <option key={role} value={role}>
                  {roleLabel(role)}
                </option>
              ))}
            </select>
          </div>
          <fieldset class="share-members">
            <legend>{t('share.members')}</legend>
            {setup.team.length === 0 && <p class="muted">{t('share.noMembers')}</p>}
            {setup.team.map((member) => (
              <div class="share-row" key={member.id}>
                <label for={`share-member-${member.id}`}>{member.name}</label>
                <select
                  id={`share-member-${member.id}`}
                  aria-label={t('share.memberRole', { name: member.name })}
                  value={setup.draft.members[member.id] ?? 'team'}
                  onChange={(e) => change({ members: { ...setup.draft.members, [member.id]: e.currentTarget.value as MemberChoice } })}
                >
                  <option value="team">{t('share.role.team', { role: roleLabel(setup.draft.team) })}</option>
                  {roles.map((role) => (
                    <option key={role} value={role}>
                      {roleLabel(role)}
                    </option>
                  ))}
                </select>
              </div>
            ))}
          </fieldset>
          {problem && (
            <Banner tone="error">
              <p>{problem.message}</p>
            </Banner>
          )}
          {saved && (
            <Banner tone="success">
              <p>{t('share.saved')}</p>
            </Banner>
          )}
          <div class="actions">
            <button type="submit" class="primary" disabled={busy}>
              {busy ? t('share.saving') : t('share.save')}
            </button>
            <button type="button" onClick={onClose}>
              {t('common.close')}
            </button>
          </div>
        </form>
      )}
      {!setup && (
        <div class="actions">
          <button type="button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
      )}
    </section>
  );
}
