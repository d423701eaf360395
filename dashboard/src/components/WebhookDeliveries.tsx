import { useId, useState } from 'react';
import { DataTable } from './DataTable';
import { Link } from 'react-router';
import type { z } from 'zod';
import type { ZRecentWebhookDelivery } from '../../../contract';
import { api, ok } from '../api';
import { useI18n } from '../i18n';
import { shortRef, useFormat } from '../lib/format';
import { EVENT_TYPE_KEYS } from '../lib/labels';
import { useRefresh } from '../lib/queries';
import { changedByWrite } from '../lib/query-keys';
import { ConfirmButton, ErrorNotice, Notice, StatusBadge, UserText } from './ui';

/** A webhook attempt, with the order its event is about (null for a test ping). */
type WebhookRow = z.infer<typeof ZRecentWebhookDelivery>;

/** Webhook attempts, newest first: what was sent and answered on demand, and a redeliver button. */
export function WebhookDeliveries({
  deliveries,
  showOrder,
}: {
  deliveries: WebhookRow[];
  showOrder?: boolean;
}) {
  const { t } = useI18n();
  const refresh = useRefresh();
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
      refresh(changedByWrite.redeliver(d.orderReference!));
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
      <DataTable
        className="responsive deliveries-table"
        columns={['when', 'event', showOrder && 'order', 'result', { key: 'actions', hidden: true }]}
      >
        {deliveries.map((d) => (
          <WebhookRowView key={d.id} delivery={d} showOrder={showOrder} onRedeliver={() => redeliver(d)} />
        ))}
      </DataTable>
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
          {t(EVENT_TYPE_KEYS[d.eventType])} <code className="muted">{d.eventType}</code>
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
