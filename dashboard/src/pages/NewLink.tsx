import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { Order } from '../../../contract';
import { api, newIdempotencyKey, ok } from '../api';
import { NetworkOptions, SubmitButton, TextField, UrlField, Options } from '../components/form';
import { CopyField, ErrorNotice, Field, Notice, PageHeader, Section, UserText } from '../components/ui';
import { useI18n, type MessageKey } from '../i18n';
import { useFormSubmit } from '../lib/actions';
import { shortRef, useFormat } from '../lib/format';
import { useTitle } from '../lib/hooks';
import { networkName } from '../lib/labels';
import { useNetworks } from '../lib/networks';
import { useRefresh, walletsQuery } from '../lib/queries';
import { changedByWrite } from '../lib/query-keys';
import { PaymentOptionsList } from '../components/order/PaymentOptions';

const LIFETIMES: { seconds: number; key: MessageKey; n?: number }[] = [
  { seconds: 900, key: 'minutesN', n: 15 },
  { seconds: 1800, key: 'minutesN', n: 30 },
  { seconds: 3600, key: 'hoursN', n: 1 },
  { seconds: 6 * 3600, key: 'hoursN', n: 6 },
  { seconds: 24 * 3600, key: 'hoursN', n: 24 },
];
const FIAT = ['BRL', 'EUR'] as const;

export function NewLinkPage() {
  const { t } = useI18n();
  const f = useFormat();
  const ids = useId();
  useTitle(t('navNewLink'));
  const wallets = useQuery(walletsQuery);
  const refresh = useRefresh();
  const [network, setNetwork] = useState<Order['network']>('SOLANA');
  const [token, setToken] = useState<Order['token']>('USDT');
  const [priceIn, setPriceIn] = useState<'token' | 'fiat'>('fiat');
  const [currency, setCurrency] = useState<(typeof FIAT)[number]>('BRL');
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  const [lifetime, setLifetime] = useState(900);
  const [returnUrl, setReturnUrl] = useState('');
  // Payment links let the payer choose by default (the design's "all"): one link serves every wallet.
  const [anyNetwork, setAnyNetwork] = useState(true);
  const [created, setCreated] = useState<Order | null>(null);
  const [attempt, setAttempt] = useState<{ body: string; key: string } | null>(null);

  const hasWallet = wallets.data?.some((w) => w.network === network);
  // The tokens the service takes on this network (GET /networks), USDT until that answer comes.
  const networks = useNetworks();
  const tokens = networks.find(network)?.tokens.map((tk) => tk.symbol) ?? ['USDT' as const];
  const chosenToken = tokens.includes(token) ? token : tokens[0]!;
  const { busy, error, submit } = useFormSubmit(async () => {
    const value = amount.trim().replace(',', '.');
    const body = {
      network,
      token: chosenToken,
      ...(anyNetwork ? { paymentOptions: 'all' as const } : {}),
      ...(priceIn === 'token' ? { amount: value } : { quoteCurrency: currency, quoteAmount: value }),
      ...(description.trim() ? { description: description.trim() } : {}),
      expiresInSeconds: lifetime,
      ...(returnUrl.trim() ? { returnUrl: returnUrl.trim() } : {}),
    };
    const json = JSON.stringify(body);
    const key = attempt?.body === json ? attempt.key : newIdempotencyKey();
    setAttempt({ body: json, key });
    setCreated(ok(await api.orders.create({ body, headers: { 'idempotency-key': key } }), 201));
    refresh(changedByWrite.createOrder());
  });

  if (created)
    return (
      <>
        <PageHeader title={t('linkReady')} />
        <Section title={t('orderTitle', { reference: shortRef(created.reference) })}>
          <Notice kind="ok">
            {t('linkReadyText', {
              amount: f.token(created.amount, created.token),
              network: networkName(created.network),
            })}
          </Notice>
          {created.paymentOptions.length > 1 && (
            <dl className="facts">
              <PaymentOptionsList order={created} />
            </dl>
          )}
          {created.description && (
            <p>
              <UserText text={created.description} />
            </p>
          )}
          {created.fxRateLabel && <p className="muted">{created.fxRateLabel}</p>}
          <div className="qr-row">
            <img
              className="qr"
              src={`/pay/${encodeURIComponent(created.reference)}/qr.svg`}
              width={200}
              height={200}
              alt={t('qrAlt')}
            />
            <div className="grow">
              <CopyField label={t('checkoutLink')} value={created.checkoutUrl} />
              <CopyField label={t('paymentUri')} value={created.payUrl} />
              <p className="muted">{t('expiresOn', { when: f.dateTime(created.expiresAt) })}</p>
            </div>
          </div>
          <div className="actions">
            <a className="button" href={created.checkoutUrl} target="_blank" rel="noopener noreferrer">
              {t('openCheckout')}
              <span className="sr-only"> {t('opensNewTab')}</span>
            </a>
            <Link className="button" to={`/orders/${encodeURIComponent(created.reference)}`}>
              {t('openOrder')}
            </Link>
            <button
              type="button"
              className="primary"
              onClick={() => {
                setCreated(null);
                setAmount('');
                setDescription('');
                setAttempt(null);
              }}
            >
              {t('createAnother')}
            </button>
          </div>
        </Section>
      </>
    );

  return (
    <>
      <PageHeader title={t('navNewLink')} />
      <p className="muted page-intro">{t('newLinkIntro')}</p>
      <form className="card form" onSubmit={submit}>
        <div className="form-grid">
          <Field id={`${ids}-network`} label={t('network')}>
            <select
              id={`${ids}-network`}
              value={network}
              onChange={(e) => setNetwork(e.target.value as Order['network'])}
            >
              <NetworkOptions />
            </select>
          </Field>
          <Field id={`${ids}-token`} label={t('token')}>
            <select
              id={`${ids}-token`}
              value={chosenToken}
              onChange={(e) => setToken(e.target.value as Order['token'])}
            >
              <Options values={tokens} />
            </select>
          </Field>
        </div>
        {wallets.data && !hasWallet && (
          <Notice kind="warn">
            {t('noWalletForNetwork', { network: networkName(network) })}{' '}
            <Link to="/wallets">{t('addWallet')}</Link>
          </Notice>
        )}
        <fieldset>
          <legend>{t('priceIn')}</legend>
          <label className="choice">
            <input
              type="radio"
              name={`${ids}-price`}
              checked={priceIn === 'fiat'}
              onChange={() => setPriceIn('fiat')}
            />
            {t('priceFiat')}
          </label>
          <label className="choice">
            <input
              type="radio"
              name={`${ids}-price`}
              checked={priceIn === 'token'}
              onChange={() => setPriceIn('token')}
            />
            {t('priceToken', { token })}
          </label>
        </fieldset>
        <div className="form-grid">
          {priceIn === 'fiat' && (
            <Field id={`${ids}-currency`} label={t('currency')}>
              <select
                id={`${ids}-currency`}
                value={currency}
                onChange={(e) => setCurrency(e.target.value as (typeof FIAT)[number])}
              >
                <Options values={FIAT} />
              </select>
            </Field>
          )}
          <TextField
            id={`${ids}-amount`}
            label={priceIn === 'fiat' ? t('priceAmount', { currency }) : t('tokenAmount', { token })}
            hint={priceIn === 'fiat' ? t('quoteHint', { token }) : t('tokenAmountHint')}
            required
            inputMode="decimal"
            autoComplete="off"
            maxLength={20}
            pattern="[0-9]+([.,][0-9]{1,6})?"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        </div>
        <TextField
          id={`${ids}-desc`}
          label={t('descriptionOptional')}
          hint={t('descriptionHint')}
          maxLength={200}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <div className="form-grid">
          <Field id={`${ids}-life`} label={t('lifetime')}>
            <select id={`${ids}-life`} value={lifetime} onChange={(e) => setLifetime(Number(e.target.value))}>
              {LIFETIMES.map((l) => (
                <option key={l.seconds} value={l.seconds}>
                  {t(l.key, { n: l.n ?? 0 })}
                </option>
              ))}
            </select>
          </Field>
          <UrlField
            id={`${ids}-return`}
            label={t('returnUrlOptional')}
            hint={t('returnUrlHint')}
            value={returnUrl}
            onChange={(e) => setReturnUrl(e.target.value)}
          />
        </div>
        <label className="choice">
          <input
            type="checkbox"
            checked={anyNetwork}
            aria-describedby={`${ids}-any-hint`}
            onChange={(e) => setAnyNetwork(e.target.checked)}
          />{' '}
          {t('anyNetwork')}
        </label>
        <p className="hint" id={`${ids}-any-hint`}>
          {t('anyNetworkHint')}
        </p>
        {error != null && <ErrorNotice error={error} />}
        <SubmitButton busy={busy} label={t('createLink')} />
      </form>
    </>
  );
}
