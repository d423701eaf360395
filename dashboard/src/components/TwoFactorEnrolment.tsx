import { useId, useState } from 'react';
import { api, ok } from '../api';
import { SubmitButton, TextField } from './form';
import { CopyField, ErrorNotice, QrCode } from './ui';
import { useI18n } from '../i18n';
import { useAction, useFormSubmit } from '../lib/actions';

/**
 * Two-factor enrolment, in the settings or at sign-in (with a setup token): a new secret as a QR
 * code and a key, a first code to confirm it, then the recovery codes, shown this once.
 */
export function TwoFactorEnrolment({ setupToken, onDone }: { setupToken?: string; onDone: () => void }) {
  const { t } = useI18n();
  const ids = useId();
  const extraHeaders = setupToken ? { authorization: `Bearer ${setupToken}` } : undefined;
  const [enrolment, setEnrolment] = useState<{ otpauthUrl: string; secret: string } | null>(null);
  const [code, setCode] = useState('');
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const begin = useAction(async () => setEnrolment(ok(await api.twoFactor.enroll({ extraHeaders }), 200)));
  const confirm = useFormSubmit(async () => {
    const answer = ok(await api.twoFactor.confirm({ body: { code: code.trim() }, extraHeaders }), 200);
    setRecoveryCodes(answer.recoveryCodes);
  });

  if (recoveryCodes)
    return (
      <div className="two-factor-codes">
        <h3>{t('twoFactorRecoveryTitle')}</h3>
        <p>{t('twoFactorRecoveryIntro')}</p>
        <ul className="recovery-codes" data-testid="recovery-codes">
          {recoveryCodes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <button type="button" className="primary" onClick={onDone}>
          {t('twoFactorRecoverySaved')}
        </button>
      </div>
    );
  if (!enrolment)
    return (
      <>
        {begin.error != null && <ErrorNotice error={begin.error} />}
        <button type="button" className="primary" disabled={begin.busy} onClick={() => void begin.run()}>
          {t('twoFactorEnable')}
        </button>
      </>
    );
  return (
    <form className="form" onSubmit={confirm.submit}>
      <p>{t('twoFactorScan')}</p>
      <QrCode text={enrolment.otpauthUrl} alt={t('twoFactorQrAlt')} />
      <CopyField label={t('twoFactorKey')} value={enrolment.secret} />
      <TextField
        id={`${ids}-code`}
        label={t('twoFactorCode')}
        hint={t('twoFactorCodeHint')}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        required
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      {confirm.error != null && <ErrorNotice error={confirm.error} />}
      <SubmitButton busy={confirm.busy} label={t('twoFactorConfirm')} />
    </form>
  );
}
