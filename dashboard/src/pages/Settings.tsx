import { useEffect, useId, useState, type FormEvent } from 'react';
import { MAX_UNDERPAYMENT_TOLERANCE_BPS, MIN_PASSWORD_LENGTH } from '../../../contract';
import { api, ok } from '../api';
import { ErrorNotice, Field, Loading, Notice, PageHeader, Section } from '../components/ui';
import { useI18n } from '../i18n';
import { useFormat } from '../lib/format';
import { useLoad, useTitle } from '../lib/hooks';
import { useSession } from '../session';

type Profile = Awaited<ReturnType<typeof loadProfile>>;
const loadProfile = async () => ok(await api.profile.get(), 200);

export function SettingsPage() {
  const { t } = useI18n();
  useTitle(t('navSettings'));
  const [profile, reload, setProfile] = useLoad(loadProfile, []);
  return (
    <>
      <PageHeader title={t('navSettings')} />
      {profile.state === 'loading' && <Loading />}
      {profile.state === 'error' && !profile.data && (
        <ErrorNotice error={profile.error} onRetry={() => void reload(false)} />
      )}
      {profile.data && (
        <>
          <ProfileForm profile={profile.data} onProfile={(p) => setProfile({ state: 'ok', data: p })} />
          <ToleranceForm profile={profile.data} onProfile={(p) => setProfile({ state: 'ok', data: p })} />
        </>
      )}
      <PasswordForm />
    </>
  );
}

function ProfileForm({ profile, onProfile }: { profile: Profile; onProfile: (p: Profile) => void }) {
  const { t } = useI18n();
  const { updateMerchant } = useSession();
  const ids = useId();
  const [name, setName] = useState(profile.full_name ?? '');
  const [phone, setPhone] = useState(profile.phone ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const updated = ok(
        await api.profile.update({
          body: { full_name: name.trim() ? name.trim() : null, phone: phone.trim() ? phone.trim() : null },
        }),
        200,
      );
      onProfile(updated);
      updateMerchant({ full_name: updated.full_name });
      setSaved(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title={t('profile')}>
      <form className="form" onSubmit={submit}>
        <Field id={`${ids}-email`} label={t('email')} hint={t('emailHint')}>
          <input id={`${ids}-email`} value={profile.email} readOnly aria-describedby={`${ids}-email-hint`} />
        </Field>
        <div className="form-grid">
          <Field id={`${ids}-name`} label={t('shopName')} hint={t('shopNameHint')}>
            <input
              id={`${ids}-name`}
              maxLength={200}
              value={name}
              aria-describedby={`${ids}-name-hint`}
              onChange={(e) => setName(e.target.value)}
            />
          </Field>
          <Field id={`${ids}-phone`} label={t('phone')}>
            <input
              id={`${ids}-phone`}
              type="tel"
              maxLength={33}
              autoComplete="tel"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
            />
          </Field>
        </div>
        {error != null && <ErrorNotice error={error} />}
        {saved && <Notice kind="ok">{t('saved')}</Notice>}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('working') : t('save')}
        </button>
      </form>
    </Section>
  );
}

/** Basis points as a percentage in the page's language ("0.5" → 50 bps). */
function ToleranceForm({ profile, onProfile }: { profile: Profile; onProfile: (p: Profile) => void }) {
  const { t } = useI18n();
  const f = useFormat();
  const ids = useId();
  const toPercent = (bps: number | null) => (bps === null ? '' : String(bps / 100));
  const [percent, setPercent] = useState(toPercent(profile.underpayment_tolerance_bps));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  useEffect(
    () => setPercent(toPercent(profile.underpayment_tolerance_bps)),
    [profile.underpayment_tolerance_bps],
  );
  const max = MAX_UNDERPAYMENT_TOLERANCE_BPS / 100;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const value = percent.trim().replace(',', '.');
      const bps = value === '' ? null : Math.round(Number(value) * 100);
      onProfile(ok(await api.profile.update({ body: { underpayment_tolerance_bps: bps } }), 200));
      setSaved(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title={t('tolerance')}>
      <p className="muted">{t('toleranceIntro')}</p>
      <form className="form" onSubmit={submit}>
        <Field
          id={`${ids}-pct`}
          label={t('tolerancePercent')}
          hint={t('toleranceHint', { max: f.percent(max / 100) })}
        >
          <input
            id={`${ids}-pct`}
            type="number"
            min={0}
            max={max}
            step={0.01}
            inputMode="decimal"
            value={percent}
            placeholder={t('serverDefault')}
            aria-describedby={`${ids}-pct-hint`}
            onChange={(e) => setPercent(e.target.value)}
          />
        </Field>
        <p>
          {profile.underpayment_tolerance_bps === null
            ? t('toleranceNowDefault')
            : t('toleranceNow', { percent: f.percent(profile.underpayment_tolerance_bps / 10_000) })}
        </p>
        {error != null && <ErrorNotice error={error} />}
        {saved && <Notice kind="ok">{t('saved')}</Notice>}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('working') : t('save')}
        </button>
      </form>
    </Section>
  );
}

function PasswordForm() {
  const { t } = useI18n();
  const ids = useId();
  const { ended } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const mismatch = again.length > 0 && next !== again;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (next !== again) return;
    setBusy(true);
    setError(null);
    try {
      ok(await api.profile.changePassword({ body: { current_password: current, new_password: next } }), 204);
      // Every session ended with the change, this one too: sign in again with the new password.
      ended('password-changed');
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <Section title={t('changePassword')}>
      <p className="muted">{t('changePasswordIntro')}</p>
      <form className="form" onSubmit={submit}>
        <Field id={`${ids}-current`} label={t('currentPassword')}>
          <input
            id={`${ids}-current`}
            type="password"
            autoComplete="current-password"
            required
            maxLength={1024}
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </Field>
        <div className="form-grid">
          <Field
            id={`${ids}-new`}
            label={t('newPassword')}
            hint={t('newPasswordHint', { n: MIN_PASSWORD_LENGTH })}
          >
            <input
              id={`${ids}-new`}
              type="password"
              autoComplete="new-password"
              required
              minLength={MIN_PASSWORD_LENGTH}
              maxLength={1024}
              value={next}
              aria-describedby={`${ids}-new-hint`}
              onChange={(e) => setNext(e.target.value)}
            />
          </Field>
          <Field
            id={`${ids}-again`}
            label={t('repeatPassword')}
            hint={mismatch ? t('passwordsDiffer') : undefined}
          >
            <input
              id={`${ids}-again`}
              type="password"
              autoComplete="new-password"
              required
              maxLength={1024}
              value={again}
              aria-invalid={mismatch}
              aria-describedby={mismatch ? `${ids}-again-hint` : undefined}
              onChange={(e) => setAgain(e.target.value)}
            />
          </Field>
        </div>
        {error != null && <ErrorNotice error={error} />}
        <button type="submit" className="primary" disabled={busy || mismatch}>
          {busy ? t('working') : t('changePassword')}
        </button>
      </form>
    </Section>
  );
}
