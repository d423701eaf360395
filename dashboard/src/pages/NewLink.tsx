import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { Order } from '../../../contract';
import { api, ok } from '../api';
import { DescriptionField, useDescription } from '../components/price/DescriptionField';
import { SubmitWithFailure, UrlField } from '../components/form';
import {
  AnyNetworkField,
  NetworkTokenFields,
  PriceFields,
  usePriceForm,
} from '../components/price/PriceFields';
import { CopyField, Field, Notice, PageHeader, Section, UserText } from '../components/ui';
import { useI18n, type MessageKey } from '../i18n';
import { useFormSubmit, useIdempotencyKey } from '../lib/actions';
import { shortRef, useFormat } from '../lib/format';
import { networkName } from '../lib/labels';
import { useRefresh } from '../lib/queries';
import { changedByWrite } from '../lib/query-keys';
import { PaymentOptionsList } from '../components/order/PaymentOptions';
import { OrderQr } from '../components/order/ShareOrder';

const LIFETIMES: { seconds: number; key: MessageKey; n?: number }[] = [
  { seconds: 900, key: 'minutesN', n: 15 },
  { seconds: 1800, key: 'minutesN', n: 30 },
  { seconds: 3600, key: 'hoursN', n: 1 },
  { seconds: 6 * 3600, key: 'hoursN', n: 6 },
  { seconds: 24 * 3600, key: 'hoursN', n: 24 },
];

export function NewLinkPage() {
  const { t } = useI18n();
  const f = useFormat();
  const ids = useId();
  const refresh = useRefresh();
  const price = usePriceForm();
  const description = useDescription();
  const [lifetime, setLifetime] = useState(900);
  const [returnUrl, setReturnUrl] = useState('');
  const [created, setCreated] = useState<Order | null>(null);
  const attempt = useIdempotencyKey();

  const { busy, error, submit } = useFormSubmit(async () => {
    const body = {
      ...price.body,
      ...description.body,
      expiresInSeconds: lifetime,
      ...(returnUrl.trim() ? { returnUrl: returnUrl.trim() } : {}),
    };
    const key = attempt.keyFor(body);
    setCreated(ok(await api.orders.create({ body, headers: { 'idempotency-key': key } }), 201));
    refresh(changedByWrite.createOrder());
  });

  if (created)
    return (
      <>
        <PageHeader title={t('linkReady')} documentTitle={t('navNewLink')} />
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
            <OrderQr reference={created.reference} />
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
                price.set.setAmount('');
                description.setDescription('');
                attempt.reset();
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
        <NetworkTokenFields form={price} />
        <PriceFields form={price} />
        <DescriptionField id={`${ids}-desc`} form={description} />
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
        <AnyNetworkField form={price} />
        <SubmitWithFailure error={error} busy={busy} label={t('createLink')} />
      </form>
    </>
  );
}
