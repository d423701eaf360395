import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { NETWORKS } from '../../../contract';
import { api, ApiFailure, ok } from '../api';
import { AddressField, NetworkOptions, SubmitButton, TextField } from '../components/form';
import { LoadedList } from '../components/LoadedList';
import { ConfirmButton, ErrorNotice, Field, Notice, PageHeader, Section, UserText } from '../components/ui';
import { useI18n } from '../i18n';
import { useFormSubmit } from '../lib/actions';
import { useFormat } from '../lib/format';
import { ADDRESS_HINT_KEYS, networkName } from '../lib/labels';
import { explorerUrl, useNetworks } from '../lib/networks';
import { useRefresh, walletsQuery } from '../lib/queries';
import { changedByWrite } from '../lib/query-keys';

type Network = (typeof NETWORKS)[number];

export function WalletsPage() {
  const { t } = useI18n();
  const f = useFormat();
  const networks = useNetworks();
  const ids = useId();
  const wallets = useQuery(walletsQuery);
  const refresh = useRefresh();
  const [network, setNetwork] = useState<Network>('SOLANA');
  const [address, setAddress] = useState('');
  const [name, setName] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<{ id: string; error: unknown } | null>(null);

  const {
    busy,
    error: addError,
    submit: add,
  } = useFormSubmit(async () => {
    setMessage(null);
    const wallet = ok(
      await api.wallets.create({
        body: { network, public_address: address.trim(), ...(name.trim() ? { name: name.trim() } : {}) },
      }),
      201,
    );
    setAddress('');
    setName('');
    setMessage(t('walletAdded', { network: networkName(wallet.network) }));
    refresh(changedByWrite.wallets());
  });

  const remove = async (walletId: string) => {
    setRemoveError(null);
    setMessage(null);
    try {
      ok(await api.wallets.remove({ params: { wallet_id: walletId } }), 204);
      setMessage(t('walletRemoved'));
      refresh(changedByWrite.wallets());
    } catch (error) {
      setRemoveError({ id: walletId, error });
    }
  };

  return (
    <>
      <PageHeader title={t('navWallets')} />
      <p className="muted page-intro">{t('walletsIntro')}</p>
      {message && <Notice kind="ok">{message}</Notice>}
      <Section title={t('yourWallets')}>
        <LoadedList list={wallets} empty={t('noWallets')}>
          {(items) => (
            <ul className="wallets">
              {items.map((w) => {
                const url = explorerUrl(networks, w.network, { address: w.public_address })?.url;
                return (
                  <li key={w.wallet_id} className="wallet">
                    <div className="wallet-main">
                      <p className="wallet-name">
                        <strong>
                          <UserText text={w.name} empty={t('unnamedWallet')} />
                        </strong>{' '}
                        <span className="chip">{networkName(w.network)}</span>
                      </p>
                      <p>
                        <code className="wrap">{w.public_address}</code>
                      </p>
                      <p className="muted small-text">
                        {t('addedOn', { when: f.dateTime(w.created_at) })}
                        {url && (
                          <>
                            {' · '}
                            <a href={url} target="_blank" rel="noopener noreferrer">
                              {t('explorer')}
                              <span className="sr-only"> {t('opensNewTab')}</span>
                            </a>
                          </>
                        )}
                      </p>
                    </div>
                    <div className="row-actions">
                      <ConfirmButton
                        danger
                        label={t('remove')}
                        question={t('removeWalletQuestion')}
                        confirmLabel={t('removeWalletYes')}
                        onConfirm={() => remove(w.wallet_id)}
                      />
                    </div>
                    {removeError?.id === w.wallet_id &&
                      (removeError.error instanceof ApiFailure && removeError.error.status === 409 ? (
                        <ErrorNotice error={removeError.error} title={t('walletInUse')} />
                      ) : (
                        <ErrorNotice error={removeError.error} />
                      ))}
                  </li>
                );
              })}
            </ul>
          )}
        </LoadedList>
      </Section>
      <Section title={t('addWallet')}>
        <form onSubmit={add} className="form">
          <div className="form-grid">
            <Field id={`${ids}-network`} label={t('network')}>
              <select
                id={`${ids}-network`}
                value={network}
                onChange={(e) => setNetwork(e.target.value as Network)}
              >
                <NetworkOptions />
              </select>
            </Field>
            <TextField
              id={`${ids}-name`}
              label={t('walletNameOptional')}
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <AddressField
            id={`${ids}-address`}
            label={t('walletAddress')}
            hint={t(ADDRESS_HINT_KEYS[networks.find(network)?.kind ?? 'solana'])}
            value={address}
            onChange={(e) => setAddress(e.target.value)}
          />
          {addError != null && (
            <ErrorNotice
              error={addError}
              title={
                addError instanceof ApiFailure && addError.status === 409 ? t('walletConflict') : undefined
              }
            />
          )}
          <SubmitButton busy={busy} label={t('addWallet')} />
        </form>
      </Section>
    </>
  );
}
