import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { DetailFrame } from '../components/DetailFrame';
import { LoadedList } from '../components/LoadedList';
import { MessengerDeliveries } from '../components/order/MessengerDeliveries';
import { OrderFacts } from '../components/order/OrderFacts';
import { PaymentsTable } from '../components/order/PaymentsTable';
import { RefundForm } from '../components/order/RefundForm';
import { RefundItem } from '../components/order/RefundItem';
import { ShareOrder } from '../components/order/ShareOrder';
import { SimulatePayment } from '../components/order/SimulatePayment';
import { Timeline } from '../components/order/Timeline';
import { Section, StatusBadge } from '../components/ui';
import { WebhookDeliveries } from '../components/WebhookDeliveries';
import { useI18n } from '../i18n';
import { shortRef } from '../lib/format';
import { useLive } from '../lib/hooks';
import { useSandbox } from '../lib/networks';
import { ORDER_STATUS_KEYS } from '../lib/labels';
import {
  auditQuery,
  messengerDeliveriesQuery,
  orderQuery,
  paymentsQuery,
  refundsQuery,
  useRefresh,
  webhookDeliveriesQuery,
} from '../lib/queries';
import { keys } from '../lib/query-keys';

/**
 * One order: its facts, payments, refunds, timeline and deliveries, each read on its own (all at
 * once on arrival) and refreshed by the order's live events as each event's type says.
 */
export function OrderPage() {
  const { reference = '' } = useParams();
  const { t } = useI18n();
  const order = useQuery(orderQuery(reference));
  const payments = useQuery(paymentsQuery(reference));
  const refunds = useQuery(refundsQuery(reference));
  const audit = useQuery(auditQuery(reference));
  const webhooks = useQuery(webhookDeliveriesQuery(reference));
  const messages = useQuery(messengerDeliveriesQuery(reference));
  const sandbox = useSandbox();
  const live = useLive({ order: reference, enabled: !order.isError || order.data !== undefined });
  useDeliveriesFollowTimeline(reference, audit.data);

  return (
    <DetailFrame
      back={{ to: '/orders', label: t('backToOrders') }}
      title={t('orderTitle', { reference: shortRef(reference) })}
      query={order}
      live={live}
      headerExtras={(o) => <StatusBadge status={o.status} label={t(ORDER_STATUS_KEYS[o.status]!)} />}
    >
      {(o) => (
        <>
          <div className="grid two">
            <OrderFacts order={o} />
            <ShareOrder order={o} />
          </div>
          {sandbox && (
            <Section title={t('simulateTitle')} id="simulate-payment">
              <SimulatePayment order={o} />
            </Section>
          )}
          <Section title={t('payments')}>
            <LoadedList list={payments} empty={t('noPayments')}>
              {(items) => <PaymentsTable order={o} payments={items} />}
            </LoadedList>
          </Section>
          <Section title={t('refunds')}>
            <LoadedList list={refunds} empty={t('noRefunds')}>
              {(items) => (
                <ul className="refunds">
                  {[...items].reverse().map((refund) => (
                    <RefundItem key={refund.id} refund={refund} />
                  ))}
                </ul>
              )}
            </LoadedList>
            <RefundForm order={o} refunds={refunds.data ?? []} />
          </Section>
          <Section title={t('timeline')}>
            <LoadedList list={audit} empty={t('noTimeline')}>
              {(items) => (
                <Timeline entries={items} order={o} credited={payments.data?.map((p) => p.txId) ?? []} />
              )}
            </LoadedList>
          </Section>
          <Section title={t('webhookDeliveries')}>
            <LoadedList list={webhooks} empty={t('noWebhookDeliveries')}>
              {(items) => (
                <WebhookDeliveries
                  deliveries={[...items].reverse().map((d) => ({ ...d, orderReference: o.reference }))}
                />
              )}
            </LoadedList>
          </Section>
          <Section title={t('messengerDeliveries')}>
            <LoadedList list={messages} empty={t('noMessengerDeliveries')}>
              {(items) => <MessengerDeliveries deliveries={items} />}
            </LoadedList>
          </Section>
        </>
      )}
    </DetailFrame>
  );
}

/**
 * Every webhook and messenger attempt is also an entry of the order's timeline (webhook.delivered,
 * messenger.failed, …): when the timeline, read again on the order's events, shows more of them
 * than it did, the deliveries are read again; otherwise an event does not touch them.
 */
function useDeliveriesFollowTimeline(reference: string, entries: { type: string }[] | undefined) {
  const refresh = useRefresh();
  const webhooks = entries?.filter((e) => e.type.startsWith('webhook.')).length;
  const messages = entries?.filter((e) => e.type.startsWith('messenger.')).length;
  const seen = useRef<{ reference: string; webhooks?: number; messages?: number }>({ reference });
  useEffect(() => {
    const before = seen.current;
    seen.current = { reference, webhooks, messages };
    if (before.reference !== reference) return;
    const changed = (now?: number, then?: number) => then !== undefined && now !== undefined && now !== then;
    refresh([
      ...(changed(webhooks, before.webhooks) ? [keys.webhookDeliveries(reference)] : []),
      ...(changed(messages, before.messages) ? [keys.messengerDeliveries(reference)] : []),
    ]);
  }, [reference, webhooks, messages, refresh]);
}
