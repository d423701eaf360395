import { useEffect, useId, useState } from 'react';
import {
  API_KEY_SCOPES,
  API_VERSION_CHANGES,
  API_VERSIONS,
  type ApiVersion,
  type CreatedApiKey,
} from '../../../contract';
import { api, ok } from '../api';
import { SubmitButton, TextField, UrlField } from '../components/form';
import { LoadedList } from '../components/LoadedList';
import {
  ConfirmButton,
  CopyField,
  Empty,
  ErrorNotice,
  Field,
  Loading,
  Notice,
  PageHeader,
  Section,
  StatusBadge,
  UserText,
} from '../components/ui';
import { useI18n, type MessageKey } from '../i18n';
import { useAction, useFormSubmit } from '../lib/actions';
import { useFormat } from '../lib/format';
import { useLoad, useTitle } from '../lib/hooks';
import { WebhookDeliveries } from './Order';

type Profile = Awaited<ReturnType<typeof loadProfile>>;
const loadProfile = async () => ok(await api.profile.get(), 200);

const SCOPE_KEYS: Record<string, MessageKey> = {
  'orders:read': 'scopeOrdersRead',
  'orders:write': 'scopeOrdersWrite',
  'refunds:write': 'scopeRefundsWrite',
  'account:read': 'scopeAccountRead',
  'account:write': 'scopeAccountWrite',
};

export function DevelopersPage() {
  const { t } = useI18n();
  useTitle(t('navDevelopers'));
  const [profile, reloadProfile, setProfile] = useLoad(loadProfile, []);
  // A test event is a delivery too: the list below shows it once it was sent.
  const [sentTests, setSentTests] = useState(0);
  return (
    <>
      <PageHeader title={t('navDevelopers')} />
      <p className="muted page-intro">
        {t('developersIntro')} <a href="/docs">{t('apiReference')}</a>
      </p>
      <ApiKeys />
      {profile.state === 'loading' && <Loading />}
      {profile.state === 'error' && !profile.data && (
        <ErrorNotice error={profile.error} onRetry={() => void reloadProfile(false)} />
      )}
      {profile.data && (
        <>
          <Webhooks
            profile={profile.data}
            onProfile={(p) => setProfile({ state: 'ok', data: p })}
            onTestSent={() => setSentTests((n) => n + 1)}
          />
          <Messenger profile={profile.data} onProfile={(p) => setProfile({ state: 'ok', data: p })} />
        </>
      )}
      <RecentDeliveries refreshKey={sentTests} />
    </>
  );
}

function ApiKeys() {
  const { t } = useI18n();
  const f = useFormat();
  const ids = useId();
  const [keys, reload] = useLoad(async () => ok(await api.apiKeys.list(), 200).items, []);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['orders:read', 'orders:write']);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revokeError, setRevokeError] = useState<unknown>(null);

  const {
    busy,
    error,
    submit: create,
  } = useFormSubmit(async () => {
    const key = ok(
      await api.apiKeys.create({
        body: { name: name.trim(), scopes: scopes as (typeof API_KEY_SCOPES)[number][] },
      }),
      201,
    );
    setCreated(key);
    setName('');
    void reload();
  });

  const revoke = async (id: string) => {
    setRevokeError(null);
    try {
      ok(await api.apiKeys.revoke({ params: { id } }), 204);
      void reload();
    } catch (failure) {
      setRevokeError(failure);
    }
  };

  return (
    <Section title={t('apiKeys')}>
      <p className="muted">{t('apiKeysIntro')}</p>
      {created && (
        <div className="secret-once" role="alert">
          <p className="notice-title">{t('keyCreated', { name: created.name })}</p>
          <p>{t('shownOnce')}</p>
          <CopyField label={t('secretKey')} value={created.secret} secret />
          <button type="button" onClick={() => setCreated(null)}>
            {t('savedItHide')}
          </button>
        </div>
      )}
      {keys.state === 'loading' && <Loading />}
      {keys.state === 'error' && <ErrorNotice error={keys.error} onRetry={() => void reload(false)} />}
      {revokeError != null && <ErrorNotice error={revokeError} />}
      {keys.data && keys.data.length === 0 && <Empty>{t('noApiKeys')}</Empty>}
      {keys.data && keys.data.length > 0 && (
        <div className="table-wrap">
          <table className="responsive">
            <caption className="sr-only">{t('apiKeys')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('name')}</th>
                <th scope="col">{t('scopes')}</th>
                <th scope="col">{t('key')}</th>
                <th scope="col">{t('created')}</th>
                <th scope="col">{t('lastUsed')}</th>
                <th scope="col">
                  <span className="sr-only">{t('actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id}>
                  <td data-label={t('name')}>
                    <UserText text={k.name} />
                  </td>
                  <td data-label={t('scopes')}>
                    <ul className="chips">
                      {k.scopes.map((s) => (
                        <li key={s} className="chip">
                          {s}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td data-label={t('key')}>
                    <code>sk_…{k.last4}</code>
                  </td>
                  <td data-label={t('created')}>{f.dateTime(k.createdAt)}</td>
                  <td data-label={t('lastUsed')}>{k.lastUsedAt ? f.dateTime(k.lastUsedAt) : t('never')}</td>
                  <td>
                    <ConfirmButton
                      danger
                      label={t('revoke')}
                      question={t('revokeQuestion')}
                      confirmLabel={t('revokeYes')}
                      onConfirm={() => revoke(k.id)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="form sub" onSubmit={create} aria-labelledby={`${ids}-title`}>
        <h3 id={`${ids}-title`}>{t('newApiKey')}</h3>
        <TextField
          id={`${ids}-name`}
          label={t('keyName')}
          hint={t('keyNameHint')}
          required
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <fieldset>
          <legend>{t('scopes')}</legend>
          {API_KEY_SCOPES.map((scope) => (
            <label key={scope} className="choice">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) =>
                  setScopes((current) =>
                    e.target.checked ? [...current, scope] : current.filter((s) => s !== scope),
                  )
                }
              />
              <span>
                <code>{scope}</code> <span className="muted">{t(SCOPE_KEYS[scope]!)}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {error != null && <ErrorNotice error={error} />}
        <SubmitButton busy={busy} label={t('createKey')} disabled={scopes.length === 0} />
      </form>
    </Section>
  );
}

function Webhooks({
  profile,
  onProfile,
  onTestSent,
}: {
  profile: Profile;
  onProfile: (p: Profile) => void;
  onTestSent: () => void;
}) {
  const { t } = useI18n();
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
      onProfile(ok(await api.profile.get(), 200));
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
    onTestSent();
  });

  const testOk = test && test.status !== null && test.status >= 200 && test.status < 300;
  return (
    <Section title={t('webhooks')}>
      <p className="muted">{t('webhooksIntro')}</p>
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
            {API_VERSIONS.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
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

function Messenger({ profile, onProfile }: { profile: Profile; onProfile: (p: Profile) => void }) {
  const { t } = useI18n();
  const ids = useId();
  const [chatId, setChatId] = useState(profile.messenger_chat_id ?? '');
  const [botToken, setBotToken] = useState('');
  const [clearToken, setClearToken] = useState(false);
  const [saved, setSaved] = useState(false);
  const [test, setTest] = useState<{ status: string; error: string | null } | null>(null);

  const {
    busy: saving,
    error,
    submit: save,
  } = useFormSubmit(async () => {
    setSaved(false);
    const body = {
      messenger_chat_id: chatId.trim() ? chatId.trim() : null,
      ...(clearToken
        ? { messenger_bot_token: null }
        : botToken.trim()
          ? { messenger_bot_token: botToken.trim() }
          : {}),
    };
    onProfile(ok(await api.profile.update({ body }), 200));
    setBotToken('');
    setClearToken(false);
    setSaved(true);
  });

  const testSend = useAction(async () => {
    setTest(null);
    const attempt = ok(await api.profile.sendTestMessage(), 200);
    setTest({ status: attempt.status, error: attempt.error });
  });

  return (
    <Section title={t('messenger')}>
      <p className="muted">{t('messengerIntro')}</p>
      <form className="form" onSubmit={save}>
        <div className="form-grid">
          <TextField
            id={`${ids}-chat`}
            label={t('chatId')}
            hint={t('chatIdHint')}
            maxLength={33}
            value={chatId}
            onChange={(e) => setChatId(e.target.value)}
          />
          <TextField
            id={`${ids}-token`}
            label={t('botToken')}
            hint={profile.messenger_bot_token_set ? t('botTokenSet') : t('botTokenNotSet')}
            type="password"
            autoComplete="off"
            maxLength={121}
            value={botToken}
            disabled={clearToken}
            onChange={(e) => setBotToken(e.target.value)}
          />
        </div>
        {profile.messenger_bot_token_set && (
          <label className="choice">
            <input type="checkbox" checked={clearToken} onChange={(e) => setClearToken(e.target.checked)} />
            {t('removeBotToken')}
          </label>
        )}
        {error != null && <ErrorNotice error={error} />}
        {saved && <Notice kind="ok">{t('saved')}</Notice>}
        <div className="actions">
          <SubmitButton busy={saving} label={t('save')} />
          <button type="button" onClick={() => void testSend.run()} disabled={testSend.busy}>
            {testSend.busy ? t('sending') : t('sendTestMessage')}
          </button>
        </div>
      </form>
      <div aria-live="polite">
        {test && (
          <Notice kind={test.status === 'SENT' ? 'ok' : 'warn'}>
            {test.status === 'SENT' ? t('testMessageSent') : t('testMessageFailed')}
            {test.error && (
              <>
                {' '}
                <UserText text={test.error} />
              </>
            )}
          </Notice>
        )}
      </div>
      {testSend.error != null && <ErrorNotice error={testSend.error} />}
    </Section>
  );
}

const FIRST_SHOWN = 10;

function RecentDeliveries({ refreshKey }: { refreshKey: number }) {
  const { t } = useI18n();
  const [all, setAll] = useState(false);
  const [deliveries, reload] = useLoad(
    async () => ok(await api.deliveries.recentWebhookDeliveries(), 200).items,
    [],
  );
  useEffect(() => {
    if (refreshKey > 0) void reload();
  }, [refreshKey, reload]);
  return (
    <Section
      title={t('recentDeliveries')}
      actions={
        <button type="button" className="small" onClick={() => void reload(false)}>
          {t('refresh')}
        </button>
      }
    >
      <LoadedList list={deliveries} reload={reload} empty={t('noRecentDeliveries')}>
        {(items) => (
          <>
            <WebhookDeliveries
              deliveries={all ? items : items.slice(0, FIRST_SHOWN)}
              onRedelivered={() => void reload()}
              showOrder
            />
            {!all && items.length > FIRST_SHOWN && (
              <button type="button" onClick={() => setAll(true)}>
                {t('showAllN', { n: items.length })}
              </button>
            )}
          </>
        )}
      </LoadedList>
    </Section>
  );
}
