import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { Role } from '../../../contract';
import { api, ok } from '../api';
import { PasswordField, TextField } from '../components/form';
import { ErrorNotice, Loading } from '../components/ui';
import { useI18n, type MessageKey } from '../i18n';
import { useFormSubmit } from '../lib/actions';
import { useTitle } from '../lib/hooks';
import { useSession } from '../session';
import { SignedOutFrame } from '../components/Layout';

/**
 * /dashboard/invite/<token>: the invitee sees the account and the role, sets its name and
 * password, and is signed in (a dashboard session with the e-mail and password it just set).
 */
export function InvitePage() {
  const { t } = useI18n();
  const { token = '' } = useParams();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  useTitle(t('inviteTitle'));
  const preview = useQuery({
    queryKey: ['invitation', token],
    queryFn: async () => ok(await api.members.showInvitation({ params: { token } }), 200),
    retry: false,
  });
  const { busy, error, submit } = useFormSubmit(
    async () => {
      ok(
        await api.members.acceptInvitation({ params: { token }, body: { name: name.trim(), password } }),
        201,
      );
      await signIn(preview.data!.email, password);
      navigate('/', { replace: true });
    },
    { staysBusy: true },
  );

  return (
    <SignedOutFrame>
      {preview.isPending ? (
        <Loading />
      ) : preview.isError ? (
        <div className="card">
          <h1>{t('inviteTitle')}</h1>
          <ErrorNotice error={preview.error} />
        </div>
      ) : (
        <form className="card" onSubmit={submit}>
          <h1>{t('inviteTitle')}</h1>
          <p>
            {t('inviteIntro', {
              account: preview.data.accountName ?? '',
              role: t(`role_${preview.data.role satisfies Role}` as MessageKey),
            })}
          </p>
          <p className="muted">{preview.data.email}</p>
          <TextField
            id="name"
            label={t('yourName')}
            required
            maxLength={200}
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <PasswordField
            id="password"
            label={t('choosePassword')}
            autoComplete="new-password"
            minLength={10}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {error != null && <ErrorNotice error={error} />}
          <button type="submit" className="primary wide" disabled={busy}>
            {busy ? t('working') : t('acceptInvitation')}
          </button>
        </form>
      )}
    </SignedOutFrame>
  );
}
