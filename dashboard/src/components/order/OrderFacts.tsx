import { Link } from 'react-router';
import type { Order } from '../../../../contract';
import { useI18n } from '../../i18n';
import { formatAmount, parseUnits } from '../../../../contract/decimal';
import { useFormat } from '../../lib/format';
import { networkName } from '../../lib/labels';
import { subscriptionPath } from '../../lib/subscriptions';
import { explorerUrl, useNetworks } from '../../lib/networks';
import { DetailsSection } from '../DetailFrame';
import { Fact } from '../ui';
import { PaymentOptionsList, useOptionName } from './PaymentOptions';

/** What the order is: its figures (due, received, refunded), price, network, wallet, dates, settings. */
export function OrderFacts({ order: o }: { order: Order }) {
  const optionName = useOptionName();
  const { t } = useI18n();
  const f = useFormat();
  const dueUnits = parseUnits(o.amount, o.decimals) - parseUnits(o.amountReceived, o.decimals);
  const due = formatAmount(dueUnits > 0n ? dueUnits : 0n, o.decimals);
  const payable = o.status === 'PENDING' || o.status === 'UNDERPAID' || o.status === 'CONFIRMING';
  const walletUrl = explorerUrl(useNetworks(), o.network, { address: o.recipient })?.url;
  return (
    <DetailsSection title={t('orderDetails')} description={o.description}>
      <dl className="figures">
        <div>
          <dt>{t('amountDue')}</dt>
          <dd className="amount">{payable ? f.token(due, o.token) : '—'}</dd>
        </div>
        <div>
          <dt>{t('received')}</dt>
          <dd className="amount">{f.token(o.amountReceived, o.token)}</dd>
        </div>
        <div>
          <dt>{t('refunded')}</dt>
          <dd className="amount">{f.token(o.amountRefunded, o.token)}</dd>
        </div>
      </dl>
      <dl className="facts">
        {o.subscriptionId && (
          <Fact label={t('subscription')}>
            <Link to={subscriptionPath(o.subscriptionId)}>
              {t('orderOfSubscription', { id: o.subscriptionId, n: (o.period?.index ?? 0) + 1 })}
            </Link>
          </Fact>
        )}
        <Fact label={t('price')}>
          {f.token(o.amount, o.token)}
          {o.quoteCurrency && o.quoteAmount && (
            <>
              {' '}
              <span className="muted">
                ({t('quotedAs', { quote: f.fiat(o.quoteAmount, o.quoteCurrency) })}
                {o.fxRateLabel ? `, ${o.fxRateLabel}` : ''}
                {o.fxSource ? ` · ${o.fxSource}` : ''})
              </span>
            </>
          )}
        </Fact>
        <Fact label={t('network')}>
          {networkName(o.network)} · {o.token}
        </Fact>
        {o.paidWith && <Fact label={t('paidWithLabel')}>{optionName(o.paidWith)}</Fact>}
        <PaymentOptionsList order={o} />
        <Fact label={t('reference')}>
          <code className="wrap">{o.reference}</code>
        </Fact>
        <Fact label={t('receivingWallet')}>
          <code className="wrap">{o.recipient}</code>{' '}
          {walletUrl && (
            <a href={walletUrl} target="_blank" rel="noopener noreferrer">
              {t('explorer')}
              <span className="sr-only"> {t('opensNewTab')}</span>
            </a>
          )}
        </Fact>
        <Fact label={t('created')}>{f.dateTimeLong(o.createdAt)}</Fact>
        {o.paidAt ? (
          <Fact label={t('paidAt')}>
            {f.dateTimeLong(o.paidAt)}
            {o.paidLate && <span className="muted"> ({t('paidLate')})</span>}
          </Fact>
        ) : (
          <Fact label={o.status === 'EXPIRED' ? t('expiredAt') : t('expiresAt')}>
            {f.dateTimeLong(o.expiresAt)}
          </Fact>
        )}
        {!o.amountUnique && <Fact label={t('matching')}>{t('amountNotUnique')}</Fact>}
        {o.returnUrl && (
          <Fact label={t('returnUrl')}>
            <code className="wrap">{o.returnUrl}</code>
          </Fact>
        )}
        {o.webhookUrl && (
          <Fact label={t('orderWebhookUrl')}>
            <code className="wrap">{o.webhookUrl}</code>
          </Fact>
        )}
        {o.metadata && (
          <Fact label={t('metadata')}>
            <pre className="code-block">{JSON.stringify(o.metadata, null, 2)}</pre>
          </Fact>
        )}
      </dl>
    </DetailsSection>
  );
}
