import { Link } from 'react-router';
import type { Order } from '../../../../contract';
import { useI18n } from '../../i18n';
import { formatAmount, parseUnits } from '../../../../contract/decimal';
import { useFormat } from '../../lib/format';
import { networkName } from '../../lib/labels';
import { subscriptionPath } from '../../lib/subscriptions';
import { explorerUrl, useNetworks } from '../../lib/networks';
import { Section, UserText } from '../ui';
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
    <Section title={t('orderDetails')}>
      <p className="order-description">
        <UserText text={o.description} empty={t('noDescription')} />
      </p>
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
          <div>
            <dt>{t('subscription')}</dt>
            <dd>
              <Link to={subscriptionPath(o.subscriptionId)}>
                {t('orderOfSubscription', { id: o.subscriptionId, n: (o.period?.index ?? 0) + 1 })}
              </Link>
            </dd>
          </div>
        )}
        <div>
          <dt>{t('price')}</dt>
          <dd>
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
          </dd>
        </div>
        <div>
          <dt>{t('network')}</dt>
          <dd>
            {networkName(o.network)} · {o.token}
          </dd>
        </div>
        {o.paidWith && (
          <div>
            <dt>{t('paidWithLabel')}</dt>
            <dd>{optionName(o.paidWith)}</dd>
          </div>
        )}
        <PaymentOptionsList order={o} />
        <div>
          <dt>{t('reference')}</dt>
          <dd>
            <code className="wrap">{o.reference}</code>
          </dd>
        </div>
        <div>
          <dt>{t('receivingWallet')}</dt>
          <dd>
            <code className="wrap">{o.recipient}</code>{' '}
            {walletUrl && (
              <a href={walletUrl} target="_blank" rel="noopener noreferrer">
                {t('explorer')}
                <span className="sr-only"> {t('opensNewTab')}</span>
              </a>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('created')}</dt>
          <dd>{f.dateTimeLong(o.createdAt)}</dd>
        </div>
        {o.paidAt ? (
          <div>
            <dt>{t('paidAt')}</dt>
            <dd>
              {f.dateTimeLong(o.paidAt)}
              {o.paidLate && <span className="muted"> ({t('paidLate')})</span>}
            </dd>
          </div>
        ) : (
          <div>
            <dt>{o.status === 'EXPIRED' ? t('expiredAt') : t('expiresAt')}</dt>
            <dd>{f.dateTimeLong(o.expiresAt)}</dd>
          </div>
        )}
        {!o.amountUnique && (
          <div>
            <dt>{t('matching')}</dt>
            <dd>{t('amountNotUnique')}</dd>
          </div>
        )}
        {o.returnUrl && (
          <div>
            <dt>{t('returnUrl')}</dt>
            <dd>
              <code className="wrap">{o.returnUrl}</code>
            </dd>
          </div>
        )}
        {o.webhookUrl && (
          <div>
            <dt>{t('orderWebhookUrl')}</dt>
            <dd>
              <code className="wrap">{o.webhookUrl}</code>
            </dd>
          </div>
        )}
        {o.metadata && (
          <div>
            <dt>{t('metadata')}</dt>
            <dd>
              <pre className="code-block">{JSON.stringify(o.metadata, null, 2)}</pre>
            </dd>
          </div>
        )}
      </dl>
    </Section>
  );
}
