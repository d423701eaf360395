import { useCallback, useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { refundHoldsAmount, type Order, type Refund } from '../../../contract';
import { formatAmount, formatUnits, parseUnits } from '../../../contract/decimal';
import { api, newIdempotencyKey, ok } from '../api';
import { AuditEntryDetails, hasOwnView } from '../components/claims';
import { AddressField, SubmitButton, TextField } from '../components/form';
import { LoadedList } from '../components/LoadedList';
import {
  ConfirmButton,
  CopyField,
  ErrorNotice,
  Loading,
  Notice,
  PageHeader,
  QrCode,
  Section,
  StatusBadge,
  TxLink,
  UserText,
} from '../components/ui';
import { useI18n, type MessageKey } from '../i18n';
import { useFormSubmit } from '../lib/actions';
import { useFormat } from '../lib/format';
import { explorerUrl, useNetworks } from '../lib/networks';
import { useEvents, useLoad, useTitle } from '../lib/hooks';
import { networkName, ORDER_STATUS_KEYS, REFUND_STATUS_KEYS } from '../lib/labels';
import { LiveIndicator, shortRef } from './Orders';

const AUDIT_KEYS: Record<string, MessageKey> = {
  'order.created': 'auditOrderCreated',
  'status.changed': 'auditStatusChanged',
  'tx.submitted': 'auditTxSubmitted',
  'tx_request.issued': 'auditTxRequestIssued',
  'payment.verified': 'auditPaymentVerified',
  'payment.rejected': 'auditPaymentRejected',
  'payment.claimed': 'auditPaymentClaimed',
  'order.paid': 'auditOrderPaid',
  'refund.created': 'auditRefundCreated',
  'refund.address_set': 'auditRefundAddressSet',
  'refund.approved': 'auditRefundApproved',
  'refund.succeeded': 'auditRefundSucceeded',
  'refund.failed': 'auditRefundFailed',
  'webhook.delivered': 'auditWebhookDelivered',
  'webhook.failed': 'auditWebhookFailed',
  'webhook.gave_up': 'auditWebhookGaveUp',
  'messenger.delivered': 'auditMessengerDelivered',
  'messenger.failed': 'auditMessengerFailed',
  'messenger.gave_up': 'auditMessengerGaveUp',
};
const ACTOR_KEYS: Record<string, MessageKey> = {
  merchant: 'actorMerchant',
  payer: 'actorPayer',
  system: 'actorSystem',
};

/** A value of an audit entry or metadata, as text. */
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function OrderPage() {
  const { reference = '' } = useParams();
  const { t } = useI18n();
  useTitle(t('orderTitle', { reference: shortRef(reference) }));
  const params = { params: { reference } };
  const [order, reloadOrder] = useLoad(async () => ok(await api.orders.get(params), 200), [reference]);
  const [payments, reloadPayments] = useLoad(
    async () => ok(await api.refunds.payments(params), 200).items,
    [reference],
  );
  const [refunds, reloadRefunds] = useLoad(
    async () => ok(await api.refunds.list(params), 200).items,
    [reference],
  );
  const [audit, reloadAudit] = useLoad(
    async () => ok(await api.deliveries.audit(params), 200).items,
    [reference],
  );
  const [webhooks, reloadWebhooks] = useLoad(
    async () => ok(await api.deliveries.webhookDeliveries(params), 200).items,
    [reference],
  );
  const [messages, reloadMessages] = useLoad(
    async () => ok(await api.deliveries.messengerDeliveries(params), 200).items,
    [reference],
  );
  const reloadAll = useCallback(() => {
    void reloadOrder();
    void reloadPayments();
    void reloadRefunds();
    void reloadAudit();
    void reloadWebhooks();
    void reloadMessages();
  }, [reloadOrder, reloadPayments, reloadRefunds, reloadAudit, reloadWebhooks, reloadMessages]);
  const live = useEvents(reloadAll, {
    order: reference,
    enabled: order.state !== 'error' || order.data !== undefined,
  });

  if (order.state === 'loading')
    return (
      <>
        <PageHeader title={t('orderTitle', { reference: shortRef(reference) })} />
        <Loading />
      </>
    );
  if (!order.data)
    return (
      <>
        <PageHeader title={t('orderTitle', { reference: shortRef(reference) })} />
        <ErrorNotice error={order.error} onRetry={() => void reloadOrder(false)} />
        <p>
          <Link to="/orders">{t('backToOrders')}</Link>
        </p>
      </>
    );
  const o = order.data;
  return (
    <>
      <p className="breadcrumb">
        <Link to="/orders">{t('backToOrders')}</Link>
      </p>
      <PageHeader title={t('orderTitle', { reference: shortRef(o.reference) })}>
        <StatusBadge status={o.status} label={t(ORDER_STATUS_KEYS[o.status]!)} />
      </PageHeader>
      <LiveIndicator live={live} />
      {order.state === 'error' && <ErrorNotice error={order.error} />}
      <div className="grid two">
        <OrderFacts order={o} />
        <ShareOrder order={o} />
      </div>
      <Section title={t('payments')}>
        <LoadedList list={payments} reload={reloadPayments} empty={t('noPayments')}>
          {(items) => <PaymentsTable order={o} payments={items} />}
        </LoadedList>
      </Section>
      <Section title={t('refunds')}>
        <LoadedList list={refunds} reload={reloadRefunds} empty={t('noRefunds')}>
          {(items) => (
            <ul className="refunds">
              {[...items].reverse().map((refund) => (
                <RefundItem key={refund.id} refund={refund} onApproved={reloadAll} />
              ))}
            </ul>
          )}
        </LoadedList>
        <RefundForm order={o} refunds={refunds.data ?? []} onCreated={reloadAll} />
      </Section>
      <Section title={t('timeline')}>
        <LoadedList list={audit} reload={reloadAudit} empty={t('noTimeline')}>
          {(items) => (
            <Timeline
              entries={items}
              order={o}
              credited={payments.data?.map((p) => p.txId) ?? []}
              onChanged={reloadAll}
            />
          )}
        </LoadedList>
      </Section>
      <Section title={t('webhookDeliveries')}>
        <LoadedList list={webhooks} reload={reloadWebhooks} empty={t('noWebhookDeliveries')}>
          {(items) => (
            <WebhookDeliveries
              deliveries={[...items].reverse().map((d) => ({ ...d, orderReference: o.reference }))}
              onRedelivered={() => void reloadWebhooks()}
            />
          )}
        </LoadedList>
      </Section>
      <Section title={t('messengerDeliveries')}>
        <LoadedList list={messages} reload={reloadMessages} empty={t('noMessengerDeliveries')}>
          {(items) => (
            <div className="table-wrap">
              <table className="responsive">
                <thead>
                  <tr>
                    <th scope="col">{t('when')}</th>
                    <th scope="col">{t('event')}</th>
                    <th scope="col">{t('chat')}</th>
                    <th scope="col">{t('result')}</th>
                    <th scope="col">{t('message')}</th>
                  </tr>
                </thead>
                <tbody>
                  {[...items].reverse().map((m) => (
                    <MessengerRow key={m.id} delivery={m} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </LoadedList>
      </Section>
    </>
  );
}

function OrderFacts({ order: o }: { order: Order }) {
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

function ShareOrder({ order: o }: { order: Order }) {
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
            <img
              className="qr"
              src={`/pay/${encodeURIComponent(o.reference)}/qr.svg`}
              width={200}
              height={200}
              alt={t('qrAlt')}
            />
            <figcaption className="muted">{t('qrCaption')}</figcaption>
          </figure>
          <CopyField label={t('paymentUri')} value={o.payUrl} />
        </>
      )}
    </Section>
  );
}

function PaymentsTable({
  order,
  payments,
}: {
  order: Order;
  payments: {
    txId: string;
    network: string;
    from: string | null;
    amount: string;
    matchedBy: string;
    blockTime: string | null;
    createdAt: string;
  }[];
}) {
  const { t } = useI18n();
  const f = useFormat();
  const matched: Record<string, MessageKey> = {
    tag: 'matchedTag',
    amount: 'matchedAmount',
    claim: 'matchedClaim',
  };
  return (
    <div className="table-wrap">
      <table className="responsive">
        <thead>
          <tr>
            <th scope="col">{t('when')}</th>
            <th scope="col" className="num">
              {t('amount')}
            </th>
            <th scope="col">{t('transaction')}</th>
            <th scope="col">{t('sender')}</th>
            <th scope="col">{t('matchedBy')}</th>
          </tr>
        </thead>
        <tbody>
          {payments.map((p) => (
            <tr key={`${p.txId}-${p.createdAt}`}>
              <td data-label={t('when')}>{f.dateTime(p.blockTime ?? p.createdAt)}</td>
              <td data-label={t('amount')} className="num">
                {f.token(p.amount, order.token)}
              </td>
              <td data-label={t('transaction')}>
                <TxLink network={p.network} txId={p.txId} />
              </td>
              <td data-label={t('sender')}>{p.from ? <code className="wrap">{p.from}</code> : '—'}</td>
              <td data-label={t('matchedBy')}>
                {matched[p.matchedBy] ? t(matched[p.matchedBy]!) : p.matchedBy}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RefundItem({ refund: r, onApproved }: { refund: Refund; onApproved: () => void }) {
  const { t } = useI18n();
  const f = useFormat();
  const [approveError, setApproveError] = useState<unknown>(null);
  const approve = async () => {
    setApproveError(null);
    try {
      ok(await api.refunds.approve({ params: { reference: r.orderReference, id: r.id } }), 200);
      onApproved();
    } catch (failure) {
      setApproveError(failure);
    }
  };
  // A FAILED refund whose transfer may still land: its amount stays held until then.
  const lateWatch = r.status === 'FAILED' && refundHoldsAmount(r, new Date()) ? r.lateUntil : null;
  return (
    <li className="refund">
      <div className="refund-head">
        <StatusBadge status={r.status} label={t(REFUND_STATUS_KEYS[r.status])} />
        <strong className="amount">{f.token(r.amount, r.token)}</strong>
        {r.late && <span className="muted">({t('refundLate')})</span>}
        <span className="muted">{f.dateTime(r.createdAt)}</span>
      </div>
      <dl className="facts">
        <div>
          <dt>{t('refundTo')}</dt>
          <dd>{r.to ? <code className="wrap">{r.to}</code> : t('waitingPayerAddress')}</dd>
        </div>
        <div>
          <dt>{t('reason')}</dt>
          <dd>
            <UserText text={r.reason} />
          </dd>
        </div>
        {(r.status === 'AWAITING_ADDRESS' || r.status === 'AWAITING_APPROVAL' || r.status === 'PENDING') && (
          <div>
            <dt>{t('deadline')}</dt>
            <dd>{f.dateTime(r.deadlineAt)}</dd>
          </div>
        )}
        {r.txId && (
          <div>
            <dt>{t('transaction')}</dt>
            <dd>
              <TxLink network={r.network} txId={r.txId} />
            </dd>
          </div>
        )}
        {r.failureReason && (
          <div>
            <dt>{t('failureReason')}</dt>
            <dd>
              <UserText text={r.failureReason} />
            </dd>
          </div>
        )}
      </dl>
      {r.status === 'AWAITING_ADDRESS' && <p className="hint">{t('refundAskPayerHint')}</p>}
      {r.status === 'AWAITING_APPROVAL' && r.to && (
        <div className="approve-refund">
          <Notice kind="warn">{t('refundApprovalHint')}</Notice>
          <div className="row-buttons">
            <ConfirmButton
              label={t('approveRefund')}
              question={t('approveRefundQuestion', { address: r.to })}
              confirmLabel={t('approveRefundConfirm')}
              onConfirm={approve}
            />
          </div>
          {approveError != null && <ErrorNotice error={approveError} />}
        </div>
      )}
      {lateWatch && <p className="hint">{t('refundLateWatch', { until: f.dateTime(lateWatch) })}</p>}
      <CopyField label={t('refundPageLink')} value={r.refundUrl} />
      {r.status === 'PENDING' && r.payUrl && (
        <div className="sign-refund">
          <p>{t('refundSignHint', { wallet: r.from })}</p>
          <div className="qr-row">
            <QrCode text={r.qrData ?? r.payUrl} alt={t('refundQrAlt')} />
            <div className="grow">
              <CopyField label={t('walletLink')} value={r.payUrl} />
              <p>
                <a href={r.payUrl}>{t('openInWallet')}</a>
              </p>
            </div>
          </div>
        </div>
      )}
    </li>
  );
}

function RefundForm({
  order,
  refunds,
  onCreated,
}: {
  order: Order;
  refunds: Refund[];
  onCreated: () => void;
}) {
  const { t } = useI18n();
  const f = useFormat();
  const ids = useId();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [mode, setMode] = useState<'ask' | 'address'>('ask');
  const [to, setTo] = useState('');
  const [created, setCreated] = useState<Refund | null>(null);
  // One Idempotency-Key per body: a retried submit of the same refund cannot create a second one.
  const [attempt, setAttempt] = useState<{ body: string; key: string } | null>(null);

  // What the other refunds hold, by the server's own rule (succeeded ones are in amountRefunded).
  const now = new Date();
  const units = (amount: string) => parseUnits(amount, order.decimals);
  const held = refunds
    .filter((r) => r.status !== 'SUCCEEDED' && refundHoldsAmount(r, now))
    .reduce((sum, r) => sum + units(r.amount), 0n);
  const leftUnits = units(order.amountReceived) - units(order.amountRefunded) - held;
  const left = formatUnits(leftUnits, order.decimals, 0);
  const { busy, error, submit } = useFormSubmit(async () => {
    const body = {
      ...(amount.trim() ? { amount: amount.trim() } : {}),
      ...(reason.trim() ? { reason: reason.trim() } : {}),
      ...(mode === 'address' && to.trim() ? { to: to.trim() } : {}),
    };
    const json = JSON.stringify(body);
    const key = attempt?.body === json ? attempt.key : newIdempotencyKey();
    setAttempt({ body: json, key });
    const refund = ok(
      await api.refunds.create({
        params: { reference: order.reference },
        body,
        headers: { 'idempotency-key': key },
      }),
      201,
    );
    setCreated(refund);
    setAmount('');
    setReason('');
    setTo('');
    setAttempt(null);
    onCreated();
  });
  // "Send it …" only while the refund just created still waits for that (the list follows it live).
  const latest = created && (refunds.find((r) => r.id === created.id) ?? created);
  const shown =
    latest && (latest.status === 'AWAITING_ADDRESS' || latest.status === 'PENDING') ? latest : null;
  if (units(order.amountReceived) <= 0n) return <p className="hint">{t('refundNothingReceived')}</p>;
  if (leftUnits <= 0n) return <p className="hint">{t('refundNothingLeft')}</p>;

  return (
    <form className="refund-form" onSubmit={submit} aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>{t('newRefund')}</h3>
      {shown && (
        <Notice kind="ok">
          {t('refundCreated', { amount: f.token(shown.amount, shown.token) })}{' '}
          {shown.status === 'AWAITING_ADDRESS' ? t('refundCreatedAsk') : t('refundCreatedSign')}
        </Notice>
      )}
      <div className="form-grid">
        <TextField
          id={`${ids}-amount`}
          label={t('refundAmount', { token: order.token })}
          hint={t('refundAmountHint', { left: f.token(left, order.token) })}
          inputMode="decimal"
          value={amount}
          placeholder={left}
          maxLength={40}
          onChange={(e) => setAmount(e.target.value)}
        />
        <TextField
          id={`${ids}-reason`}
          label={t('reasonOptional')}
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
      <fieldset>
        <legend>{t('refundDestination')}</legend>
        <label className="choice">
          <input type="radio" name={`${ids}-mode`} checked={mode === 'ask'} onChange={() => setMode('ask')} />
          {t('askPayer')}
        </label>
        <label className="choice">
          <input
            type="radio"
            name={`${ids}-mode`}
            checked={mode === 'address'}
            onChange={() => setMode('address')}
          />
          {t('sendToAddress')}
        </label>
        {mode === 'address' && (
          <AddressField
            id={`${ids}-to`}
            label={t('refundAddress', { network: networkName(order.network) })}
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
        )}
      </fieldset>
      {error != null && <ErrorNotice error={error} />}
      <SubmitButton busy={busy} label={t('createRefund')} />
    </form>
  );
}

function Timeline({
  entries,
  ...details
}: {
  entries: { id: string; type: string; actor: string; data: Record<string, unknown>; createdAt: string }[];
} & Omit<Parameters<typeof AuditEntryDetails>[0], 'entry'>) {
  const { t } = useI18n();
  const f = useFormat();
  return (
    <ol className="timeline">
      {entries.map((e) => (
        <li key={e.id}>
          <p className="timeline-head">
            <strong>{AUDIT_KEYS[e.type] ? t(AUDIT_KEYS[e.type]!) : e.type}</strong>{' '}
            <span className="muted">
              {f.dateTimeLong(e.createdAt)} · {ACTOR_KEYS[e.actor] ? t(ACTOR_KEYS[e.actor]!) : e.actor} ·{' '}
              <code>{e.type}</code>
            </span>
          </p>
          <AuditEntryDetails entry={e} {...details} />
          {!hasOwnView(e) && Object.keys(e.data).length > 0 && (
            <dl className="kv">
              {Object.entries(e.data).map(([key, value]) => (
                <div key={key}>
                  <dt>{key}</dt>
                  <dd>
                    <code className="wrap">{asText(value)}</code>
                  </dd>
                </div>
              ))}
            </dl>
          )}
        </li>
      ))}
    </ol>
  );
}

type WebhookRow = {
  id: string;
  eventId: string;
  eventType: string;
  url: string;
  attempt: number;
  requestBody: string;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number | null;
  createdAt: string;
  nextRetryAt: string | null;
  orderReference: string | null;
};

/** Webhook attempts, newest first: what was sent and answered on demand, and a redeliver button. */
export function WebhookDeliveries({
  deliveries,
  onRedelivered,
  showOrder,
}: {
  deliveries: WebhookRow[];
  onRedelivered: () => void;
  showOrder?: boolean;
}) {
  const { t } = useI18n();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [error, setError] = useState<unknown>(null);

  const redeliver = async (d: WebhookRow) => {
    setError(null);
    setResult(null);
    try {
      const attempt = ok(
        await api.deliveries.redeliverWebhook({ params: { reference: d.orderReference!, id: d.id } }),
        200,
      );
      const success =
        attempt.responseStatus !== null && attempt.responseStatus >= 200 && attempt.responseStatus < 300;
      setResult({
        ok: success,
        text: success
          ? t('redeliveredOk', { status: attempt.responseStatus ?? '' })
          : t('redeliveredFailed', { reason: attempt.error ?? String(attempt.responseStatus ?? '') }),
      });
      onRedelivered();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <>
      <div aria-live="polite">
        {result && <Notice kind={result.ok ? 'ok' : 'warn'}>{result.text}</Notice>}
      </div>
      {error != null && <ErrorNotice error={error} />}
      <div className="table-wrap">
        <table className="responsive deliveries-table">
          <thead>
            <tr>
              <th scope="col">{t('when')}</th>
              <th scope="col">{t('event')}</th>
              {showOrder && <th scope="col">{t('order')}</th>}
              <th scope="col">{t('result')}</th>
              <th scope="col">
                <span className="sr-only">{t('actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <WebhookRowView
                key={d.id}
                delivery={d}
                showOrder={showOrder}
                onRedeliver={() => redeliver(d)}
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function WebhookRowView({
  delivery: d,
  showOrder,
  onRedeliver,
}: {
  delivery: WebhookRow;
  showOrder?: boolean;
  onRedeliver: () => Promise<void>;
}) {
  const { t } = useI18n();
  const f = useFormat();
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const success = d.responseStatus !== null && d.responseStatus >= 200 && d.responseStatus < 300;
  return (
    <>
      <tr>
        <td data-label={t('when')}>
          {f.dateTime(d.createdAt)}
          <div className="muted small-text">
            {t('attemptN', { n: d.attempt })}
            {d.durationMs !== null ? ` · ${f.int(d.durationMs)} ms` : ''}
          </div>
        </td>
        <td data-label={t('event')}>
          <code>{d.eventType}</code>
        </td>
        {showOrder && (
          <td data-label={t('order')}>
            {d.orderReference ? (
              <Link to={`/orders/${encodeURIComponent(d.orderReference)}`}>
                <code>{shortRef(d.orderReference)}</code>
              </Link>
            ) : (
              <span className="muted">{t('testPing')}</span>
            )}
          </td>
        )}
        <td data-label={t('result')}>
          <StatusBadge
            status={success ? 'SENT' : 'FAILED'}
            label={success ? t('delivered') : t('notDelivered')}
          />
          <div className="small-text delivery-result">
            {d.responseStatus !== null ? t('answeredStatus', { status: d.responseStatus }) : t('noAnswer')}
            {d.error && (
              <>
                {' · '}
                <UserText text={d.error} />
              </>
            )}
            {d.nextRetryAt && <> · {t('nextRetry', { when: f.dateTime(d.nextRetryAt) })}</>}
          </div>
        </td>
        <td>
          <div className="row-buttons">
            <button
              type="button"
              className="small"
              aria-expanded={open}
              aria-controls={detailsId}
              onClick={() => setOpen((o) => !o)}
            >
              {open ? t('hideDetails') : t('details')}
            </button>
            {d.orderReference && (
              <ConfirmButton
                label={t('redeliver')}
                question={t('redeliverQuestion')}
                confirmLabel={t('redeliverNow')}
                onConfirm={onRedeliver}
              />
            )}
          </div>
        </td>
      </tr>
      <tr id={detailsId} hidden={!open} className="details-row">
        <td colSpan={showOrder ? 5 : 4}>
          <p className="muted">
            {t('sentTo')} <code className="wrap">{d.url}</code>
          </p>
          <p className="label">{t('requestBody')}</p>
          <pre className="code-block">{d.requestBody}</pre>
          <p className="label">{t('responseBody')}</p>
          <pre className="code-block">{d.responseBody ?? '—'}</pre>
        </td>
      </tr>
    </>
  );
}

function MessengerRow({
  delivery: m,
}: {
  delivery: {
    id: string;
    eventType: string;
    chatId: string;
    text: string;
    status: string;
    responseStatus: number | null;
    error: string | null;
    attempt: number;
    createdAt: string;
  };
}) {
  const { t } = useI18n();
  const f = useFormat();
  return (
    <tr>
      <td data-label={t('when')}>
        {f.dateTime(m.createdAt)} <span className="muted">· {t('attemptN', { n: m.attempt })}</span>
      </td>
      <td data-label={t('event')}>
        <code>{m.eventType}</code>
      </td>
      <td data-label={t('chat')}>
        <code>{m.chatId}</code>
      </td>
      <td data-label={t('result')}>
        <StatusBadge status={m.status} label={m.status === 'SENT' ? t('delivered') : t('notDelivered')} />
        {m.error && (
          <div className="small-text">
            <UserText text={m.error} />
          </div>
        )}
      </td>
      <td data-label={t('message')}>
        <details>
          <summary>{t('showMessage')}</summary>
          <pre className="code-block">{m.text}</pre>
        </details>
      </td>
    </tr>
  );
}
