import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { Order } from '../../../../contract';
import { useI18n } from '../../i18n';
import { networkName } from '../../lib/labels';
import { useNetworks } from '../../lib/networks';
import { walletsQuery } from '../../lib/queries';
import { NetworkOptions, Options, RadioChoices, TextField } from '../form';
import { Field, Notice } from '../ui';

const FIAT = ['BRL', 'EUR'] as const;

/**
 * The price of what a form creates (a payment link, a subscription): its first network and token,
 * a token amount or a fiat price, and whether the payer may choose any network ("all"). `body` is
 * those fields as POST /orders and POST /subscriptions take them.
 */
export function usePriceForm() {
  const [network, setNetwork] = useState<Order['network']>('SOLANA');
  const [token, setToken] = useState<Order['token']>('USDT');
  const [priceIn, setPriceIn] = useState<'token' | 'fiat'>('fiat');
  const [currency, setCurrency] = useState<(typeof FIAT)[number]>('BRL');
  const [amount, setAmount] = useState('');
  // Links and subscriptions let the payer choose by default (the design's "all"): one serves every wallet.
  const [anyNetwork, setAnyNetwork] = useState(true);
  // The tokens the service takes on this network (GET /networks), USDT until that answer comes.
  const networks = useNetworks();
  const tokens = networks.find(network)?.tokens.map((tk) => tk.symbol) ?? ['USDT' as const];
  const chosenToken = tokens.includes(token) ? token : tokens[0]!;
  const value = amount.trim().replace(',', '.');
  const body = {
    network,
    token: chosenToken,
    ...(anyNetwork ? { paymentOptions: 'all' as const } : {}),
    ...(priceIn === 'token' ? { amount: value } : { quoteCurrency: currency, quoteAmount: value }),
  };
  return {
    state: { network, token: chosenToken, tokens, priceIn, currency, amount, anyNetwork },
    set: { setNetwork, setToken, setPriceIn, setCurrency, setAmount, setAnyNetwork },
    body,
  };
}

export type PriceForm = ReturnType<typeof usePriceForm>;

/** The network and token pickers, with a word when the merchant has no wallet on that network. */
export function NetworkTokenFields({ form }: { form: PriceForm }) {
  const { t } = useI18n();
  const ids = useId();
  const wallets = useQuery(walletsQuery);
  const { network, token, tokens } = form.state;
  const hasWallet = wallets.data?.some((w) => w.network === network);
  return (
    <>
      <div className="form-grid">
        <Field id={`${ids}-network`} label={t('network')}>
          <select
            id={`${ids}-network`}
            value={network}
            onChange={(e) => form.set.setNetwork(e.target.value as Order['network'])}
          >
            <NetworkOptions />
          </select>
        </Field>
        <Field id={`${ids}-token`} label={t('token')}>
          <select
            id={`${ids}-token`}
            value={token}
            onChange={(e) => form.set.setToken(e.target.value as Order['token'])}
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
    </>
  );
}

/** "Price in" fiat or the token, the currency, and the amount. */
export function PriceFields({ form }: { form: PriceForm }) {
  const { t } = useI18n();
  const ids = useId();
  const { priceIn, currency, token, amount } = form.state;
  return (
    <>
      <fieldset>
        <legend>{t('priceIn')}</legend>
        <RadioChoices
          name={`${ids}-price`}
          value={priceIn}
          onChange={form.set.setPriceIn}
          options={[
            { value: 'fiat', label: t('priceFiat') },
            { value: 'token', label: t('priceToken', { token }) },
          ]}
        />
      </fieldset>
      <div className="form-grid">
        {priceIn === 'fiat' && (
          <Field id={`${ids}-currency`} label={t('currency')}>
            <select
              id={`${ids}-currency`}
              value={currency}
              onChange={(e) => form.set.setCurrency(e.target.value as (typeof FIAT)[number])}
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
          onChange={(e) => form.set.setAmount(e.target.value)}
        />
      </div>
    </>
  );
}

/** "Let the payer choose the network": every way the service takes ("all"). */
export function AnyNetworkField({ form }: { form: PriceForm }) {
  const { t } = useI18n();
  const ids = useId();
  return (
    <>
      <label className="choice">
        <input
          type="checkbox"
          checked={form.state.anyNetwork}
          aria-describedby={`${ids}-any-hint`}
          onChange={(e) => form.set.setAnyNetwork(e.target.checked)}
        />{' '}
        {t('anyNetwork')}
      </label>
      <p className="hint" id={`${ids}-any-hint`}>
        {t('anyNetworkHint')}
      </p>
    </>
  );
}
