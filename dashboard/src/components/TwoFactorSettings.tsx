import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, ok } from '../api';
import { SubmitWithFailure, TextField } from './form';
import { TwoFactorEnrolment } from './TwoFactorEnrolment';
import { ErrorNotice, Loading, Notice, Section } from './ui';
import { useI18n } from '../i18n';
import { useAction, useFormSubmit } from '../lib/actions';
import { useFormat } from '../lib/format';
import { useSession } from '../session';

const STATUS_KEY = ['two-factor'] as const;

/**
 * The member's own two-factor sign-in (enrol with a QR code, recovery codes once, turn off with a
 * code) and, for the owner (`account:security`), the switch that requires it of every member.
 */
export function TwoFactorSettings() {
  const { t } = useI18n();
  const f = useFormat();
  const client = useQueryClient();
  const status = useQuery({
    queryKey: STATUS_KEY,
    queryFn: async () => ok(await api.twoFactor.status(), 200),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: STATUS_KEY });
  const { status: session } = useSession();
  const owner = session.state === 'signed-in' && session.session.permissions.includes('account:security');
  return (
    <>
      <Section title={t('twoFactor')} intro={t('twoFactorIntro')} id="two-factor">
        {status.error != null && <ErrorNotice error={status.error} />}
        {!status.data ? (
          <Loading />
        ) : status.data.enabled ? (
          <>
            <p data-testid="two-factor-on">
              {t('twoFactorOn', {
                date: f.dateTime(status.data.enabledAt!),
                n: String(status.data.recoveryCodesLeft),
              })}
            </p>
            {status.data.required ? (
              <Notice kind="info">{t('twoFactorRequiredNote')}</Notice>
            ) : (
              <DisableForm onDone={refresh} />
            )}
          </>
        ) : (
          <>
            <p>{t('twoFactorOff')}</p>
            <TwoFactorEnrolment onDone={refresh} />
          </>
        )}
      </Section>
      {owner && status.data && (
        <RequireSwitch required={status.data.required} ownOn={status.data.enabled} onDone={refresh} />
      )}
    </>
  );
}

function DisableForm({ onDone }: { onDone: () => void }) {
  const { t } = useI18n();
  const ids = useId();
  const [code, setCode] = useState('');
  const { busy, error, submit } = useFormSubmit(async () => {
    ok(await api.twoFactor.disable({ body: { code: code.trim() } }), 204);
    setCode('');
    onDone();
  });
  return (
    <form className="form" onSubmit={submit}>
      <TextField
        id={`${ids}-code`}
        label={t('twoFactorCode')}
        hint={t('twoFactorDisableHint')}
        autoComplete="one-time-code"
        required
        maxLength={32}
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <SubmitWithFailure error={error} busy={busy} label={t('twoFactorDisable')} />
    </form>
  );
}

function RequireSwitch({
  required,
  ownOn,
  onDone,
}: {
  required: boolean;
  ownOn: boolean;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(async () => {
    ok(await api.account.update({ body: { requireTwoFactor: !required } }), 200);
    onDone();
  });
  return (
    <Section title={t('twoFactorRequireTitle')} intro={t('twoFactorRequireIntro')}>
      {!ownOn && !required && <Notice kind="warn">{t('twoFactorRequireOwnFirst')}</Notice>}
      {error != null && <ErrorNotice error={error} />}
      <button
        type="button"
        className={required ? '' : 'primary'}
        disabled={busy || (!ownOn && !required)}
        onClick={() => void run()}
      >
        {required ? t('twoFactorRequireOff') : t('twoFactorRequireOn')}
      </button>
    </Section>
  );
}
