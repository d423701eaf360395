import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Account, Network, Order } from '../../../contract';
import { isFiatCurrency } from '../../../contract';
import { api, ok } from '../api';
import { DaySales } from '../components/pos/DaySales';
import { Keypad } from '../components/pos/Keypad';
import { SaleScreen } from '../components/pos/SaleScreen';
import { SalesByMember } from '../components/SalesByMember';
import { ErrorNotice, Loading, Notice } from '../components/ui';
import { useI18n } from '../i18n';
import { browserTimeZone, todayIn, useFormat } from '../lib/format';
import { centsText, chargeSale, isConnectionFailure, pressKey, saleBody, tipCents } from '../lib/pos';
import { walletsQuery } from '../lib/queries';
import { useCan } from '../session';

const accountQuery = { queryKey: ['account'], queryFn: async () => ok(await api.account.get(), 200) };
const RETRY_MS = 2000;

/** A sale being made: its key is made once, before the first try, and every retry sends it again. */
type Charging = { key: string; body: ReturnType<typeof saleBody>; offline: boolean; error: unknown };

/**
 * The point of sale (DESIGN.md, "Point of sale"): the cashier types the amount in the account's
 * currency, picks a tip, and charges; the customer scans and the screen turns to "Paid".
 */
export function PosPage() {
  const { t } = useI18n();
  const account = useQuery(accountQuery);
  const wallets = useQuery(walletsQuery);
  if (account.isPending || wallets.isPending) return <Loading />;
  if (account.isError) return <ErrorNotice error={account.error} onRetry={() => void account.refetch()} />;
  if (wallets.isError) return <ErrorNotice error={wallets.error} onRetry={() => void wallets.refetch()} />;
  const network = wallets.data[0]?.network;
  return (
    <div className="pos">
      <h1 id="page-title" tabIndex={-1} className="sr-only">
        {t('navPos')}
      </h1>
      {network ? (
        <Register account={account.data} network={network} />
      ) : (
        <Notice kind="warn">{t('posNoWallet')}</Notice>
      )}
      <DaySales />
      <TodayByCashier />
    </div>
  );
}

/** For whoever sees the shop's figures (the owner, not a cashier): today's sales of each cashier. */
function TodayByCashier() {
  const { t } = useI18n();
  const can = useCan();
  if (!can('exports:read')) return null;
  const timeZone = browserTimeZone();
  const today = todayIn(timeZone);
  return (
    <details className="pos-by-cashier">
      <summary>{t('posByCashier')}</summary>
      <SalesByMember range={{ from: today, to: today, timeZone }} caption={t('posByCashier')} />
    </details>
  );
}

function Register({ account, network }: { account: Account; network: Network }) {
  const { t } = useI18n();
  const fmt = useFormat();
  const [cents, setCents] = useState(0);
  const [tipPercent, setTipPercent] = useState<number | null>(null);
  const [email, setEmail] = useState('');
  const [charging, setCharging] = useState<Charging | null>(null);
  const [order, setOrder] = useState<Order | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const money = (c: number) =>
    isFiatCurrency(account.currency)
      ? fmt.fiat(centsText(c), account.currency)
      : fmt.token(centsText(c), account.currency);
  const tip = tipCents(cents, tipPercent);

  const attempt = useCallback(async (sale: Charging) => {
    try {
      setOrder(await chargeSale(sale.body, sale.key));
      setCharging(null);
    } catch (error) {
      if (isConnectionFailure(error)) {
        // The order may have been made and its answer lost: the same key again, never a new sale.
        setCharging({ ...sale, offline: true });
        timer.current = setTimeout(() => void attempt(sale), RETRY_MS);
      } else setCharging({ ...sale, offline: false, error });
    }
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);

  const charge = useCallback(() => {
    if (cents === 0 || charging) return;
    const sale: Charging = {
      key: crypto.randomUUID(),
      body: saleBody(account, network, { cents, tipPercent, email: email.trim() }),
      offline: false,
      error: null,
    };
    setCharging(sale);
    void attempt(sale);
  }, [account, network, cents, tipPercent, email, charging, attempt]);

  const newSale = () => {
    clearTimeout(timer.current);
    setOrder(null);
    setCharging(null);
    setCents(0);
    setTipPercent(null);
    setEmail('');
  };

  if (order) return <SaleScreen first={order} onNewSale={newSale} />;
  const busy = charging !== null && !charging.error;
  return (
    <section className="pos-register" aria-label={t('posRegister')}>
      <output className="pos-amount" aria-live="polite">
        {money(cents)}
      </output>
      {account.tipPercentages.length > 0 && (
        <div className="pos-tips" role="radiogroup" aria-label={t('posTip')}>
          {[null, ...account.tipPercentages].map((p) => (
            <button
              key={p ?? 'none'}
              type="button"
              role="radio"
              aria-checked={tipPercent === p}
              className={tipPercent === p ? 'pos-tip picked' : 'pos-tip'}
              disabled={busy}
              onClick={() => setTipPercent(p)}
            >
              {p === null ? t('posNoTip') : `${p}%`}
            </button>
          ))}
        </div>
      )}
      {tip > 0 && (
        <p className="pos-with-tip">{t('posWithTip', { tip: money(tip), total: money(cents + tip) })}</p>
      )}
      <Keypad onKey={(key) => setCents((c) => pressKey(c, key))} onEnter={charge} enabled={!busy} />
      <label className="pos-email">
        <span>{t('posCustomerEmail')}</span>
        <input
          type="email"
          value={email}
          disabled={busy}
          autoComplete="off"
          onChange={(e) => setEmail(e.target.value)}
        />
      </label>
      {charging?.offline && (
        <p className="pos-offline" role="status">
          {t('posNoConnectionRetrying')}
        </p>
      )}
      {charging?.error ? <ErrorNotice error={charging.error} /> : null}
      <button type="button" className="pos-charge" disabled={cents === 0 || busy} onClick={charge}>
        {busy ? t('posCharging') : t('posCharge', { total: money(cents + tip) })}
      </button>
    </section>
  );
}
