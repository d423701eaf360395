import type { z } from 'zod';
import { DataTable } from '../DataTable';
import type { ZMessengerDelivery } from '../../../../contract';
import { useI18n } from '../../i18n';
import { useFormat } from '../../lib/format';
import { EVENT_TYPE_KEYS } from '../../lib/labels';
import { StatusBadge, UserText } from '../ui';

type MessengerDelivery = z.infer<typeof ZMessengerDelivery>;

/** The order's messenger messages, newest first: what each said and whether it was sent. */
export function MessengerDeliveries({ deliveries }: { deliveries: MessengerDelivery[] }) {
  return (
    <DataTable className="responsive" columns={['when', 'event', 'chat', 'result', 'message']}>
      {[...deliveries].reverse().map((m) => (
        <MessengerRow key={m.id} delivery={m} />
      ))}
    </DataTable>
  );
}

function MessengerRow({ delivery: m }: { delivery: MessengerDelivery }) {
  const { t } = useI18n();
  const f = useFormat();
  return (
    <tr>
      <td data-label={t('when')}>
        {f.dateTime(m.createdAt)} <span className="muted">· {t('attemptN', { n: m.attempt })}</span>
      </td>
      <td data-label={t('event')}>
        {t(EVENT_TYPE_KEYS[m.eventType])} <code className="muted">{m.eventType}</code>
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
