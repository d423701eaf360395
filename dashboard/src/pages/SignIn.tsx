import { useState } from 'react';
import { PasswordField, TextField } from '../components/form';
import { SignedOutFrame } from '../components/Layout';
import { ErrorNotice, Notice, ProblemNotice } from '../components/ui';
import { ApiFailure } from '../api';
import { useI18n } from '../i18n';
import { useFormSubmit } from '../lib/actions';
import { useTitle } from '../lib/hooks';
import { useSession, type SignedOutReason, type SignInStep } from '../session';
import { TwoFactorEnrolment } from '../components/TwoFactorEnrolment';

export function SignInPage({ reason }: { reason: SignedOutReason }) {
  const { t } = useI18n();
  const { signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<SignInStep | null>(null);
  const [enrolled, setEnrolled] = useState(false);
  const { busy, error, submit } = useFormSubmit(async () => {
    const next = await signIn(email.trim(), password);
    // Signed in: the page goes. Otherwise the step the password led to, and the form is free again.
    if (!next) return new Promise<never>(() => {});
    setPassword('');
    setEnrolled(false);
    setStep(next);
  });
  useTitle(t('signInTitle'));

  const back = () => setStep(null);
  let content;
  if (step?.step === 'code') content = <CodeStep mfaToken={step.mfaToken} onBack={back} />;
  else if (step?.step === 'setup')
    content = (
      <div className="card">
        <h1>{t('signInSetupTitle')}</h1>
        <p className="muted">{t('signInSetupIntro')}</p>
        <TwoFactorEnrolment
          setupToken={step.setupToken}
          onDone={() => {
            setEnrolled(true);
            back();
          }}
        />
      </div>
    );
  const wrongCredentials = error instanceof ApiFailure && error.status === 401;
  return (
    <SignedOutFrame>
      {content ?? (
        <form className="card" onSubmit={submit} noValidate={false}>
          <h1>{t('signInTitle')}</h1>
          <p className="muted">{t('signInIntro')}</p>
          {enrolled && <Notice kind="ok">{t('signInSetupDone')}</Notice>}
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
          <StepFailure error={error} expected={wrongCredentials} says={t('wrongCredentials')} />
          <button type="submit" className="primary wide" disabled={busy}>
            {busy ? t('signingIn') : t('signIn')}
          </button>
        </form>
      )}
    </SignedOutFrame>
  );
}

/** The second step: a code from the authenticator app (or a recovery code) for the mfaToken. */
function CodeStep({ mfaToken, onBack }: { mfaToken: string; onBack: () => void }) {
  const { t } = useI18n();
  const { signInWithCode } = useSession();
  const [code, setCode] = useState('');
  const { busy, error, submit } = useFormSubmit(() => signInWithCode(mfaToken, code.trim()), {
    staysBusy: true,
  });
  const wrongCode = error instanceof ApiFailure && error.status === 401 && error.message === 'Wrong code';
  return (
    <form className="card" onSubmit={submit}>
      <h1>{t('signInCodeTitle')}</h1>
      <p className="muted">{t('signInCodeIntro')}</p>
      <TextField
        id="code"
        label={t('twoFactorCode')}
        autoComplete="one-time-code"
        autoFocus
        required
        maxLength={32}
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <StepFailure error={error} expected={wrongCode} says={t('signInCodeWrong')} />
      <button type="submit" className="primary wide" disabled={busy}>
        {t('signInVerify')}
      </button>
      <button type="button" className="wide" onClick={onBack}>
        {t('signInBack')}
      </button>
    </form>
  );
}

/** A step's failure: the one it expects (a wrong password, a wrong code) in its own words, any other as the API said. */
function StepFailure({ error, expected, says }: { error: unknown; expected: boolean; says: string }) {
  if (expected) return <ProblemNotice>{says}</ProblemNotice>;
  return error != null && <ErrorNotice error={error} />;
}
