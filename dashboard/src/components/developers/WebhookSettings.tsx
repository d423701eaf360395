import { useId, useState } from 'react';
import { API_VERSION_CHANGES, API_VERSIONS, type ApiVersion } from '../../../../contract';
import { api, ok } from '../../api';
import { useI18n } from '../../i18n';
import { useAction, useFormSubmit } from '../../lib/actions';
import { useFormat } from '../../lib/format';
import { useRefresh } from '../../lib/queries';
import { changedByWrite } from '../../lib/query-keys';
import { SubmitButton, UrlField, Options } from '../form';
import { ConfirmButton, CopyField, ErrorNotice, Field, Notice, Section, StatusBadge, UserText } from '../ui';
import type { ProfileFormProps } from '../ProfileForms';

/** Where webhooks go and at which payload version, the signing secret, and a test event. */
export function WebhookSettings({ profile, onProfile }: ProfileFormProps) {
  const { t } = useI18n();
  const refresh = useRefresh();
  const f = useFormat();
  const ids = useId();
  const [url, setUrl] = useState(profile.webhook_url ?? '');
  const [version, setVersion] = useState<ApiVersion | ''>(profile.webhook_api_version ?? '');
  const [saved, setSaved] = useState<string | null>(null);
  const [secret, setSecret] = useState<{
    webhook_secret: string;
    previous_secret_expires_at: string | null;
  } | null>(null);
  const [secretError, setSecretError] = useState<unknown>(null);
  const [test, setTest] = useState<{
    status: number | null;
    error: string | null;
    body: string | null;
    ms: number | null;
  } | null>(null);

  const {
    busy: saving,
    error: saveError,
    submit: save,
  } = useFormSubmit(async () => {
    setSaved(null);
    const body = {
      webhook_url: url.trim() ? url.trim() : null,
      ...(version ? { webhook_api_version: version } : {}),
    };
    onProfile(ok(await api.profile.update({ body }), 200));
    setSaved(t('saved'));
  });

  const rotate = async () => {
    setSecretError(null);
    try {
      setSecret(ok(await api.profile.rotateWebhookSecret(), 200));
      refresh(changedByWrite.profile());
    } catch (failure) {
      setSecretError(failure);
    }
  };

  const testSend = useAction(async () => {
    setTest(null);
    const attempt = ok(await api.profile.sendTestWebhook(), 200);
    setTest({
      status: attempt.responseStatus,
      error: attempt.error,
      body: attempt.responseBody,
      ms: attempt.durationMs,
    });
    // A test event is a delivery too: the recent deliveries show it.
    refresh(changedByWrite.testWebhook());
  });

  const testOk = test && test.status !== null && test.status >= 200 && test.status < 300;
  return (
    <Section title={t('webhooks')} intro={t('webhooksIntro')}>
      <form className="form" onSubmit={save}>
        <UrlField
          id={`${ids}-url`}
          label={t('webhookUrl')}
          hint={t('webhookUrlHint')}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <Field
          id={`${ids}-version`}
          label={t('apiVersion')}
          hint={version ? API_VERSION_CHANGES[version] : t('apiVersionUnpinned')}
        >
          <select
            id={`${ids}-version`}
            value={version}
            aria-describedby={`${ids}-version-hint`}
            onChange={(e) => setVersion(e.target.value as ApiVersion)}
          >
            {!profile.webhook_api_version && <option value="">{t('apiVersionLatest')}</option>}
            <Options values={API_VERSIONS} />
          </select>
        </Field>
        {saveError != null && <ErrorNotice error={saveError} />}
        {saved && <Notice kind="ok">{saved}</Notice>}
        <SubmitButton busy={saving} label={t('save')} />
      </form>

      <div className="sub">
        <h3>{t('signingSecret')}</h3>
        <p>
          {profile.webhook_secret_set ? t('secretIsSet') : t('secretNotSet')}{' '}
          <span className="muted">{t('secretHint')}</span>
        </p>
        {secret && (
          <div className="secret-once" role="alert">
            <p className="notice-title">{t('newSecret')}</p>
            <p>{t('shownOnce')}</p>
            <CopyField label={t('signingSecret')} value={secret.webhook_secret} secret />
            {secret.previous_secret_expires_at && (
              <p>{t('previousSecretUntil', { when: f.dateTime(secret.previous_secret_expires_at) })}</p>
            )}
            <button type="button" onClick={() => setSecret(null)}>
              {t('savedItHide')}
            </button>
          </div>
        )}
        {secretError != null && <ErrorNotice error={secretError} />}
        {profile.webhook_secret_set ? (
          <ConfirmButton
            label={t('rotateSecret')}
            question={t('rotateQuestion')}
            confirmLabel={t('rotateYes')}
            onConfirm={rotate}
          />
        ) : (
          <button type="button" onClick={() => void rotate()}>
            {t('createSecret')}
          </button>
        )}
      </div>

      <div className="sub">
        <h3>{t('testEvent')}</h3>
        <p className="muted">{t('testEventHint')}</p>
        <button type="button" onClick={() => void testSend.run()} disabled={testSend.busy}>
          {testSend.busy ? t('sending') : t('sendTestEvent')}
        </button>
        <div aria-live="polite">
          {test && (
            <div className={`notice ${testOk ? 'ok' : 'warn'}`}>
              <p>
                <StatusBadge
                  status={testOk ? 'SENT' : 'FAILED'}
                  label={testOk ? t('delivered') : t('notDelivered')}
                />{' '}
                {test.status !== null ? t('answeredStatus', { status: test.status }) : t('noAnswer')}
                {test.ms !== null && ` · ${f.int(test.ms)} ms`}
              </p>
              {test.error && (
                <p>
                  <UserText text={test.error} />
                </p>
              )}
              {test.body && (
                <>
                  <p className="label">{t('responseBody')}</p>
                  <pre className="code-block">{test.body}</pre>
                </>
              )}
            </div>
          )}
        </div>
        {testSend.error != null && <ErrorNotice error={testSend.error} />}
      </div>
    </Section>
  );
}
