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

/** The fields that name who acted: shown in the entry's head, not among its data. */
const ACTOR_FIELDS = new Set(['memberId', 'memberEmail', 'apiKeyId', 'apiKeyName']);

/** Who made an entry: the member by e-mail, the API key by name, else the payer or the service. */
function actorLabel(e: AuditEntry, t: ReturnType<typeof useI18n>['t']): string {
  const { memberEmail, apiKeyName } = e.data;
  if (e.actor === 'member' && typeof memberEmail === 'string') return memberEmail;
  if (e.actor === 'api_key' && typeof apiKeyName === 'string') return t('actorApiKey', { name: apiKeyName });
  const key = ACTOR_KEYS[e.actor];
  return key ? t(key) : e.actor;
}

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
      {entries.map((e) => {
        const data = Object.entries(e.data).filter(([key]) => !ACTOR_FIELDS.has(key));
        return (
          <li key={e.id}>
            <p className="timeline-head">
              <strong>{t(AUDIT_KEYS[e.type])}</strong>{' '}
              <span className="muted">
                {f.dateTimeLong(e.createdAt)} · <span data-testid="timeline-actor">{actorLabel(e, t)}</span> ·{' '}
                <code>{e.type}</code>
              </span>
            </p>
            <AuditEntryDetails entry={e} {...details} />
            {!hasOwnView(e) && data.length > 0 && (
              <dl className="kv">
                {data.map(([key, value]) => (
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
        );
      })}
    </ol>
  );
}
