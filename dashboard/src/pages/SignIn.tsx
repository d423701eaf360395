import { useState } from 'react';
import { PasswordField, TextField } from '../components/form';
import { SignedOutFrame } from '../components/Layout';
import { ErrorNotice, Notice } from '../components/ui';
import { ApiFailure } from '../api';
import { useI18n } from '../i18n';
import { useFormSubmit } from '../lib/actions';
import { useTitle } from '../lib/hooks';
import { useSession, type SignedOutReason } from '../session';

export function SignInPage({ reason }: { reason: SignedOutReason }) {
  const { t } = useI18n();
  const { signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useFormSubmit(() => signIn(email.trim(), password), { staysBusy: true });
  useTitle(t('signInTitle'));

  const wrongCredentials = error instanceof ApiFailure && error.status === 401;
  return (
    <SignedOutFrame>
      <form className="card" onSubmit={submit} noValidate={false}>
        <h1>{t('signInTitle')}</h1>
        <p className="muted">{t('signInIntro')}</p>
        {reason === 'ended' && <Notice kind="warn">{t('sessionEnded')}</Notice>}
        {reason === 'signed-out' && <Notice kind="ok">{t('signedOut')}</Notice>}
        {reason === 'password-changed' && <Notice kind="ok">{t('passwordChangedSignIn')}</Notice>}
        <TextField
          id="email"
          label={t('email')}
          type="email"
          autoComplete="username"
          required
          maxLength={254}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <PasswordField
          id="password"
          label={t('password')}
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {wrongCredentials ? (
          <div className="notice error" role="alert">
            <p>{t('wrongCredentials')}</p>
          </div>
        ) : (
          error != null && <ErrorNotice error={error} />
        )}
        <button type="submit" className="primary wide" disabled={busy}>
          {busy ? t('signingIn') : t('signIn')}
        </button>
      </form>
    </SignedOutFrame>
  );
}
