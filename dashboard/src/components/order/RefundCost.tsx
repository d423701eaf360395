import type { Refund } from '../../../../contract';
import { useI18n } from '../../i18n';
import { useFormat } from '../../lib/format';
import { Fact, Notice } from '../ui';

/**
 * What sending a refund costs the merchant's wallet, when the service priced it (TRON: energy and
 * bandwidth, burned in TRX without staked resources), and a warning when the wallet's TRX falls
 * short: the network would refuse the transfer after the merchant signed it.
 */
export function RefundCost({ refund }: { refund: Refund }) {
  const { t } = useI18n();
  const f = useFormat();
  const cost =
    refund.transaction && 'estimatedCost' in refund.transaction ? refund.transaction.estimatedCost : null;
  if (!cost || refund.status !== 'PENDING') return null;
  return (
    <div className="refund-cost">
      <dl className="facts">
        <Fact label={t('refundCost')}>
          {t('refundCostValue', {
            trx: f.number(cost.trx),
            energy: f.int(cost.energy),
            bandwidth: f.int(cost.bandwidth),
          })}
          <span className="muted small-text"> {t('refundCostHint')}</span>
        </Fact>
        <Fact label={t('refundWalletTrx')}>{f.token(cost.trxBalance, 'TRX')}</Fact>
      </dl>
      {!cost.covered && (
        <Notice kind="warn">
          {t('refundTrxShort', {
            wallet: refund.from,
            balance: f.number(cost.trxBalance),
            cost: f.number(cost.trx),
          })}
        </Notice>
      )}
    </div>
  );
}
