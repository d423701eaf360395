import { useQuery } from '@tanstack/react-query';
import { DataTable } from '../DataTable';
import { useId, useState } from 'react';
import { API_KEY_SCOPES, type CreatedApiKey } from '../../../../contract';
import { api, ok } from '../../api';
import { useI18n, type MessageKey } from '../../i18n';
import { useFormSubmit } from '../../lib/actions';
import { useFormat } from '../../lib/format';
import { apiKeysQuery, useRefresh } from '../../lib/queries';
import { changedByWrite } from '../../lib/query-keys';
import { SubmitWithFailure, TextField } from '../form';
import { ConfirmButton, CopyField, Empty, ErrorNotice, Loading, Section, UserText } from '../ui';

const SCOPE_KEYS: Record<string, MessageKey> = {
  'orders:read': 'scopeOrdersRead',
  'orders:write': 'scopeOrdersWrite',
  'refunds:write': 'scopeRefundsWrite',
  'account:read': 'scopeAccountRead',
  'account:write': 'scopeAccountWrite',
  'x402:settle': 'scopeX402Settle',
};

/** The merchant's API keys: listed by name and last 4, created (the secret shown once), revoked. */
export function ApiKeys() {
  const { t } = useI18n();
  const f = useFormat();
  const ids = useId();
  const keys = useQuery(apiKeysQuery);
  const refresh = useRefresh();
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
    refresh(changedByWrite.apiKeys());
  });

  const revoke = async (id: string) => {
    setRevokeError(null);
    try {
      ok(await api.apiKeys.revoke({ params: { id } }), 204);
      refresh(changedByWrite.apiKeys());
    } catch (failure) {
      setRevokeError(failure);
    }
  };

  return (
    <Section title={t('apiKeys')} intro={t('apiKeysIntro')}>
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
      {keys.isPending && <Loading />}
      {keys.isError && <ErrorNotice error={keys.error} onRetry={() => void keys.refetch()} />}
      {revokeError != null && <ErrorNotice error={revokeError} />}
      {keys.data && keys.data.length === 0 && <Empty>{t('noApiKeys')}</Empty>}
      {keys.data && keys.data.length > 0 && (
        <DataTable
          className="responsive"
          caption={t('apiKeys')}
          columns={['name', 'scopes', 'key', 'created', 'lastUsed', { key: 'actions', hidden: true }]}
        >
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
        </DataTable>
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
        <SubmitWithFailure error={error} busy={busy} label={t('createKey')} disabled={scopes.length === 0} />
      </form>
    </Section>
  );
}
