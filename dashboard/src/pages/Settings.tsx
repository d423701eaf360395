import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  MAX_UNDERPAYMENT_TOLERANCE_BPS,
  MIN_PASSWORD_LENGTH,
  PROFILE_FIELD_PERMISSIONS,
} from '../../../contract';
import { api, ok } from '../api';
import { FormSection, PasswordField, SubmitButton, SubmitWithFailure, TextField } from '../components/form';
import { ErrorNotice, Notice, PageHeader } from '../components/ui';
import { ProfileForms, type ProfileFormProps } from '../components/ProfileForms';
import { TwoFactorSettings } from '../components/TwoFactorSettings';
import { useI18n } from '../i18n';
import { useAction, useFormSubmit } from '../lib/actions';
import { useFormat } from '../lib/format';
import { useCan, useSession } from '../session';

export function SettingsPage() {
  const { t } = useI18n();
  const can = useCan();
  // The account's name, phone and tolerance: offered only to a role that may change them.
  const mayEdit =
    can(PROFILE_FIELD_PERMISSIONS.full_name) && can(PROFILE_FIELD_PERMISSIONS.underpayment_tolerance_bps);
  return (
    <>
      <PageHeader title={t('navSettings')} />
      {mayEdit && <ProfileForms forms={[ProfileForm, ToleranceForm]} />}
      <PasswordForm />
      <TwoFactorSettings />
    </>
  );
}

function ProfileForm({ profile, onProfile }: ProfileFormProps) {
  const { t } = useI18n();
  const { updateMerchant } = useSession();
  const ids = useId();
  const [name, setName] = useState(profile.full_name ?? '');
  const [phone, setPhone] = useState(profile.phone ?? '');
  const [saved, setSaved] = useState(false);
  const { busy, error, submit } = useFormSubmit(async () => {
    setSaved(false);
    const updated = ok(
      await api.profile.update({
        body: { full_name: name.trim() ? name.trim() : null, phone: phone.trim() ? phone.trim() : null },
      }),
      200,
    );
    onProfile(updated);
    updateMerchant({ full_name: updated.full_name });
    setSaved(true);
  });
  return (
    <FormSection title={t('profile')} onSubmit={submit}>
      <TextField
        id={`${ids}-email`}
        label={t('email')}
        hint={t('emailHint')}
        value={profile.email}
        readOnly
      />
      <div className="form-grid">
        <TextField
          id={`${ids}-name`}
          label={t('shopName')}
          hint={t('shopNameHint')}
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <TextField
          id={`${ids}-phone`}
          label={t('phone')}
          type="tel"
          maxLength={33}
          autoComplete="tel"
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
        />
      </div>
      <SavedFeedback error={error} saved={saved} />
      <SubmitButton busy={busy} label={t('save')} />
    </FormSection>
  );
}

/** Basis points as a percentage in the page's language ("0.5" → 50 bps). */
function ToleranceForm({ profile, onProfile }: ProfileFormProps) {
  const { t } = useI18n();
  const f = useFormat();
  const ids = useId();
  const toPercent = (bps: number | null) => (bps === null ? '' : String(bps / 100));
  const [percent, setPercent] = useState(toPercent(profile.underpayment_tolerance_bps));
  const [saved, setSaved] = useState(false);
  useEffect(
    () => setPercent(toPercent(profile.underpayment_tolerance_bps)),
    [profile.underpayment_tolerance_bps],
  );
  const max = MAX_UNDERPAYMENT_TOLERANCE_BPS / 100;
  const { busy, error, submit } = useFormSubmit(async () => {
    setSaved(false);
    const value = percent.trim().replace(',', '.');
    const bps = value === '' ? null : Math.round(Number(value) * 100);
    onProfile(ok(await api.profile.update({ body: { underpayment_tolerance_bps: bps } }), 200));
    setSaved(true);
  });
  return (
    <FormSection title={t('tolerance')} intro={t('toleranceIntro')} onSubmit={submit}>
      <TextField
        id={`${ids}-pct`}
        label={t('tolerancePercent')}
        hint={t('toleranceHint', { max: f.percent(max / 100) })}
        type="number"
        min={0}
        max={max}
        step={0.01}
        inputMode="decimal"
        value={percent}
        placeholder={t('serverDefault')}
        onChange={(e) => setPercent(e.target.value)}
      />
      <p>
        {profile.underpayment_tolerance_bps === null
          ? t('toleranceNowDefault')
          : t('toleranceNow', { percent: f.percent(profile.underpayment_tolerance_bps / 10_000) })}
      </p>
      <SavedFeedback error={error} saved={saved} />
      <SubmitButton busy={busy} label={t('save')} />
    </FormSection>
  );
}

/** What a save said: its failure, or "Saved". */
function SavedFeedback({ error, saved }: { error: unknown; saved: boolean }) {
  const { t } = useI18n();
  return (
    <>
      {error != null && <ErrorNotice error={error} />}
      {saved && <Notice kind="ok">{t('saved')}</Notice>}
    </>
  );
}

function PasswordForm() {
  const { t } = useI18n();
  const ids = useId();
  const { ended } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const mismatch = again.length > 0 && next !== again;
  const { busy, error, run } = useAction(
    async () => {
      ok(await api.profile.changePassword({ body: { current_password: current, new_password: next } }), 204);
      // Every session ended with the change, this one too: sign in again with the new password.
      ended('password-changed');
    },
    { staysBusy: true },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (next === again) void run();
  };
  return (
    <FormSection title={t('changePassword')} intro={t('changePasswordIntro')} onSubmit={submit}>
      <PasswordField
        id={`${ids}-current`}
        label={t('currentPassword')}
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
      />
      <div className="form-grid">
        <PasswordField
          id={`${ids}-new`}
          label={t('newPassword')}
          hint={t('newPasswordHint', { n: MIN_PASSWORD_LENGTH })}
          autoComplete="new-password"
          minLength={MIN_PASSWORD_LENGTH}
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
        <PasswordField
          id={`${ids}-again`}
          label={t('repeatPassword')}
          hint={mismatch ? t('passwordsDiffer') : undefined}
          autoComplete="new-password"
          value={again}
          aria-invalid={mismatch}
          onChange={(e) => setAgain(e.target.value)}
        />
      </div>
      <SubmitWithFailure error={error} busy={busy} label={t('changePassword')} disabled={mismatch} />
    </FormSection>
  );
}
