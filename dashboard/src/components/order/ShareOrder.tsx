import type { Order } from '../../../../contract';
import { useI18n } from '../../i18n';
import { CopyField, Notice, Section } from '../ui';

/** How to send the payer to the order: the checkout link and, while it can be paid, the code to pay it. */
export function ShareOrder({ order: o }: { order: Order }) {
  const { t } = useI18n();
  const payable = o.status === 'PENDING' || o.status === 'UNDERPAID' || o.status === 'CONFIRMING';
  return (
    <Section title={t('shareTitle')}>
      {!payable && <Notice kind="info">{t('shareNotPayable')}</Notice>}
      <CopyField label={t('checkoutLink')} value={o.checkoutUrl} />
      <p>
        <a href={o.checkoutUrl} target="_blank" rel="noopener noreferrer">
          {t('openCheckout')}
          <span className="sr-only"> {t('opensNewTab')}</span>
        </a>
      </p>
      {/* The page still shows the payer the order; a code "to pay" it would mislead once it cannot be paid. */}
      {payable && (
        <>
          <figure className="qr-figure">
            <OrderQr reference={o.reference} />
            <figcaption className="muted">{t('qrCaption')}</figcaption>
          </figure>
          <CopyField label={t('paymentUri')} value={o.payUrl} />
        </>
      )}
    </Section>
  );
}

/** The order's payment QR code, as the service draws it for the payer's page. */
export function OrderQr({ reference }: { reference: string }) {
  const { t } = useI18n();
  return (
    <img
      className="qr"
      src={`/pay/${encodeURIComponent(reference)}/qr.svg`}
      width={200}
      height={200}
      alt={t('qrAlt')}
    />
  );
}
