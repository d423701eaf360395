import type { AuditEntry } from '../../../../contract';
import { useI18n, type MessageKey } from '../../i18n';
import { useFormat } from '../../lib/format';
import { readAuditOptions } from '../../lib/claims';
import { AUDIT_KEYS } from '../../lib/labels';
import { AuditEntryDetails, hasOwnView } from '../claims';
import { OptionsList } from './PaymentOptions';

const ACTOR_KEYS: Record<string, MessageKey> = {
  merchant: 'actorMerchant',
  payer: 'actorPayer',
  system: 'actorSystem',
};

/** A value of an audit entry or metadata, as text. */
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A value of an audit entry: the ways to pay as the order page lists them, anything else as text. */
function AuditValue({ name, value }: { name: string; value: unknown }) {
  const options = name === 'paymentOptions' ? readAuditOptions(value) : null;
  if (options) return <OptionsList options={options} />;
  return <code className="wrap">{asText(value)}</code>;
}

/** The order's audit trail, oldest first: who did what, when, and with what. */
export function Timeline({
  entries,
  ...details
}: {
  entries: AuditEntry[];
} & Omit<Parameters<typeof AuditEntryDetails>[0], 'entry'>) {
  const { t } = useI18n();
  const f = useFormat();
  return (
    <ol className="timeline">
      {entries.map((e) => (
        <li key={e.id}>
          <p className="timeline-head">
            <strong>{t(AUDIT_KEYS[e.type])}</strong>{' '}
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
                    <AuditValue name={key} value={value} />
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
