import type { Order } from '../../../../contract';
import { useI18n } from '../../i18n';
import { useFormat } from '../../lib/format';
import { networkName } from '../../lib/labels';

/** "USDT on Polygon PoS": a payment option (or where an order was paid) in words. */
export function useOptionName() {
  const { t } = useI18n();
  return (o: { network: Order['network']; token: Order['token'] }) =>
    t('optionName', { token: o.token, network: networkName(o.network) });
}

/** The ways an order may be paid, each with its amount; nothing for a one-option order. */
export function PaymentOptionsList({ order }: { order: Order }) {
  const { t } = useI18n();
  const f = useFormat();
  const name = useOptionName();
  if (order.paymentOptions.length < 2) return null;
  return (
    <div>
      <dt>{t('payableOn')}</dt>
      <dd>
        <ul className="plain">
          {order.paymentOptions.map((o) => (
            <li key={`${o.network}-${o.token}`}>
              {name(o)}: {f.token(o.amount, o.token)}
            </li>
          ))}
        </ul>
      </dd>
    </div>
  );
}
