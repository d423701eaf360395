import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ROLES, type Role } from '../../../contract';
import { api, ok } from '../api';
import { Options, SubmitWithFailure, TextField } from '../components/form';
import { LoadedList } from '../components/LoadedList';
import {
  ConfirmButton,
  CopyField,
  ErrorNotice,
  Field,
  Notice,
  PageHeader,
  Section,
  UserText,
} from '../components/ui';
import { useI18n, type MessageKey } from '../i18n';
import { useFormSubmit } from '../lib/actions';
import { useFormat } from '../lib/format';
import { invitationsQuery, membersQuery, useRefresh } from '../lib/queries';
import { changedByWrite } from '../lib/query-keys';
import { useCan, useMember } from '../session';

const roleKey = (role: Role) => `role_${role}` as MessageKey;

/** The account's members and invitations: listed to every member, managed by those with members:write. */
export function MembersPage() {
  const { t } = useI18n();
  const f = useFormat();
  const ids = useId();
  const can = useCan();
  const me = useMember();
  const members = useQuery(membersQuery);
  const manage = can('members:write');
  const invitations = useQuery({ ...invitationsQuery, enabled: manage });
  const refresh = useRefresh();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [link, setLink] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  // Roles this member may give: an owner's only by the owner.
  const roles = ROLES.filter((r) => r !== 'owner' || can('ownership:write'));

  const { busy, error, submit } = useFormSubmit(async () => {
    setLink(null);
    const made = ok(await api.members.invite({ body: { email: email.trim(), role } }), 201);
    setEmail('');
    setLink(made.link ?? null);
    refresh(changedByWrite.members());
  });

  const act = async (run: () => Promise<unknown>) => {
    setActionError(null);
    try {
      await run();
      refresh(changedByWrite.members());
    } catch (e) {
      setActionError(e);
    }
  };

  return (
    <>
      <PageHeader title={t('navMembers')} />
      <p className="muted page-intro">{t('membersIntro')}</p>
      {actionError != null && <ErrorNotice error={actionError} />}
      <Section title={t('membersList')}>
        <LoadedList list={members} empty={t('noMembers')}>
          {(items) => (
            <ul className="wallets">
              {items.map((m) => (
                <li key={m.id} className="wallet">
                  <div className="wallet-main">
                    <p>
                      <strong>
                        <UserText text={m.name} empty={m.email} />
                      </strong>{' '}
                      <span className="chip">{t(roleKey(m.role))}</span>
                    </p>
                    <p className="muted small-text">
                      {m.email} · {t('memberSince', { when: f.dateTime(m.createdAt) })}
                    </p>
                  </div>
                  {manage && m.id !== me.id && (m.role !== 'owner' || can('ownership:write')) && (
                    <div className="row-actions">
                      <label className="sr-only" htmlFor={`${ids}-role-${m.id}`}>
                        {t('memberRole')}
                      </label>
                      <select
                        id={`${ids}-role-${m.id}`}
                        value={m.role}
                        onChange={(e) =>
                          void act(async () =>
                            ok(
                              await api.members.changeRole({
                                params: { id: m.id },
                                body: { role: e.target.value as Role },
                              }),
                              200,
                            ),
                          )
                        }
                      >
                        <Options values={roles} label={(r) => t(roleKey(r))} />
                      </select>
                      <ConfirmButton
                        danger
                        label={t('remove')}
                        question={t('removeMemberQuestion', { email: m.email })}
                        confirmLabel={t('removeMemberYes')}
                        onConfirm={() =>
                          act(async () => ok(await api.members.remove({ params: { id: m.id } }), 204))
                        }
                      />
                      {can('ownership:write') && (
                        <ConfirmButton
                          label={t('makeOwner')}
                          question={t('makeOwnerQuestion', { email: m.email })}
                          confirmLabel={t('makeOwnerYes')}
                          onConfirm={() =>
                            act(async () =>
                              ok(await api.members.transferOwnership({ body: { memberId: m.id } }), 200),
                            )
                          }
                        />
                      )}
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </LoadedList>
      </Section>
      {manage && (
        <>
          <Section title={t('invitations')}>
            <LoadedList list={invitations} empty={t('noInvitations')}>
              {(items) => (
                <ul className="wallets">
                  {items.map((i) => (
                    <li key={i.id} className="wallet">
                      <div className="wallet-main">
                        <p>
                          <strong>{i.email}</strong> <span className="chip">{t(roleKey(i.role))}</span>{' '}
                          <span className="chip">{t(`invitation_${i.status}` as MessageKey)}</span>
                        </p>
                        <p className="muted small-text">
                          {t('invitationExpires', { when: f.dateTime(i.expiresAt) })}
                        </p>
                      </div>
                      {i.status === 'PENDING' && (
                        <div className="row-actions">
                          <ConfirmButton
                            danger
                            label={t('revoke')}
                            question={t('revokeInvitationQuestion')}
                            confirmLabel={t('revokeInvitationYes')}
                            onConfirm={() =>
                              act(async () =>
                                ok(await api.members.revokeInvitation({ params: { id: i.id } }), 204),
                              )
                            }
                          />
                        </div>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </LoadedList>
          </Section>
          <Section title={t('inviteMember')}>
            {link && (
              <Notice kind="ok">
                {t('invitationLinkOnce')}
                <CopyField label={t('invitationLink')} value={link} />
              </Notice>
            )}
            <form onSubmit={submit} className="form">
              <div className="form-grid">
                <TextField
                  id={`${ids}-email`}
                  label={t('email')}
                  type="email"
                  required
                  maxLength={254}
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                />
                <Field id={`${ids}-role`} label={t('memberRole')}>
                  <select id={`${ids}-role`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
                    <Options values={roles} label={(r) => t(roleKey(r))} />
                  </select>
                </Field>
              </div>
              <SubmitWithFailure error={error} busy={busy} label={t('sendInvitation')} />
            </form>
          </Section>
        </>
      )}
    </>
  );
}
