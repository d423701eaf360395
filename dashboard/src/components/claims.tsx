import { useState } from 'react';
import type { Order } from '../../../contract';
import { api, ok } from '../api';
import { useI18n } from '../i18n';
import { readClaimedTransfer, reportSigned } from '../lib/claims';
import { useFormat } from '../lib/format';
import { explorerUrl, useNetworks } from '../lib/networks';
import { useRefresh } from '../lib/queries';
import { changedByWrite } from '../lib/query-keys';
import { ConfirmButton, ErrorNotice, Fact, Notice, TxLink, UserText } from './ui';

/** A wallet address with a link to it on the network's explorer (opens in a new tab). */
export function AddressLink({ network, address }: { network: string; address: string }) {
  const { t } = useI18n();
  const explorer = explorerUrl(useNetworks(), network, { address });
  return (
    <span className="address">
      <code className="wrap">{address}</code>{' '}
      {explorer && (
        <a href={explorer.url} target="_blank" rel="noopener noreferrer">
          {t('explorer')}
          <span className="sr-only"> {t('opensNewTab')}</span>
        </a>
      )}
    </span>
  );
}

/** Who sent a transfer, linked to the network's explorer, or "unknown" when the chain did not say. */
export function SenderFact({ network, from }: { network: string; from: string | null | undefined }) {
  const { t } = useI18n();
  return (
    <Fact label={t('sender')}>
      {from ? <AddressLink network={network} address={from} /> : t('senderUnknown')}
    </Fact>
  );
}

type Entry = { type: string; data: Record<string, unknown> };

/** Entries shown by `AuditEntryDetails` in place of their raw data. */
type EntryProps = {
  entry: Entry;
  order: Order;
  /** The transactions already credited to the order (its payments). */
  credited: string[];
};

export const hasOwnView = (entry: Entry) =>
  entry.type === 'payment.claimed' && readClaimedTransfer(entry.data) !== null;

/**
 * What some timeline entries mean, in words: whether a payer's report was signed by the sending
 * wallet, and a transfer reported without proof with the way to attribute it to the order.
 */
export function AuditEntryDetails({ entry, order, credited }: EntryProps) {
  const { t } = useI18n();
  if (entry.type === 'tx.submitted') {
    const signed = reportSigned(entry.data);
    if (signed === null) return null;
    return (
      <p className="audit-note">
        <span className={signed ? 'badge ok' : 'badge bad'}>
          {signed ? t('reportSignedYes') : t('reportSignedNo')}
        </span>
      </p>
    );
  }
  if (entry.type === 'payment.claimed' && hasOwnView(entry))
    return <ClaimedPayment entry={entry} order={order} credited={credited} />;
  return null;
}

function ClaimedPayment({ entry, order, credited }: EntryProps) {
  const { t } = useI18n();
  const f = useFormat();
  const refresh = useRefresh();
  const claim = readClaimedTransfer(entry.data)!;
  const [attributed, setAttributed] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const isCredited = credited.includes(claim.txId);

  const attribute = async () => {
    setError(null);
    try {
      ok(
        await api.orders.submitTx({
          params: { reference: order.reference },
          // Named when the order has several ways to pay: ids of EVM networks look alike.
          body: { txId: claim.txId, ...(claim.network ? { network: claim.network } : {}) },
        }),
        202,
      );
      setAttributed(true);
      refresh(changedByWrite.attribute(order.reference));
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <div className="claim">
      <p className="muted small-text">{t('claimedIntro')}</p>
      <dl className="facts">
        <div>
          <dt>{t('amount')}</dt>
          <dd className="amount">{claim.amount ? f.token(claim.amount, order.token) : '—'}</dd>
        </div>
        <SenderFact network={order.network} from={claim.from} />
        <Fact label={t('transaction')}>
          <TxLink network={order.network} txId={claim.txId} />
        </Fact>
        {claim.blockTime && <Fact label={t('sentOn')}>{f.dateTimeLong(claim.blockTime)}</Fact>}
        {claim.reason && (
          <Fact label={t('heldBackBecause')}>
            <UserText text={claim.reason} />
          </Fact>
        )}
      </dl>
      <div aria-live="polite">
        {isCredited ? (
          <Notice kind="ok">{t('claimCredited')}</Notice>
        ) : (
          attributed && <Notice kind="info">{t('claimAttributedChecking')}</Notice>
        )}
      </div>
      {!isCredited && !attributed && order.status !== 'PAID' && (
        <div className="row-actions">
          <ConfirmButton
            label={t('attributeToThisOrder')}
            question={t('attributeQuestion')}
            confirmLabel={t('attributeYes')}
            onConfirm={attribute}
          />
        </div>
      )}
      {error != null && <ErrorNotice error={error} />}
    </div>
  );
}
