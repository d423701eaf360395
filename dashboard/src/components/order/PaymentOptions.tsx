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

/** Ways to pay, one a line: "USDT on Polygon PoS: 10.00 USDT". */
export function OptionsList({
  options,
}: {
  options: readonly Pick<Order, 'network' | 'token' | 'amount'>[];
}) {
  const f = useFormat();
  const name = useOptionName();
  return (
    <ul className="plain">
      {options.map((o) => (
        <li key={`${o.network}-${o.token}`}>
          {name(o)}: {f.token(o.amount, o.token)}
        </li>
      ))}
    </ul>
  );
}

/** The ways an order may be paid, each with its amount; nothing for a one-option order. */
export function PaymentOptionsList({ order }: { order: Order }) {
  const { t } = useI18n();
  if (order.paymentOptions.length < 2) return null;
  return (
    <div>
      <dt>{t('payableOn')}</dt>
      <dd>
        <OptionsList options={order.paymentOptions} />
      </dd>
    </div>
  );
}
