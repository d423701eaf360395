import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { UnattributedPayment, WebhookEventBody } from '../../../contract';
import { api, ok } from '../api';
import { AddressLink, SenderFact } from '../components/claims';
import { SubmitButton, TextField } from '../components/form';
import { LoadedList } from '../components/LoadedList';
import { ErrorNotice, Fact, Notice, PageHeader, Section, TxLink } from '../components/ui';
import { useI18n } from '../i18n';
import { useFormSubmit } from '../lib/actions';
import {
  appendTransfers,
  attributionOutcomes,
  transferKey,
  type Attribution,
  type AttributionOutcome,
} from '../lib/claims';
import { shortRef, useFormat } from '../lib/format';
import { useLive } from '../lib/hooks';
import { networkName } from '../lib/labels';
import { unattributedQuery, useRefresh } from '../lib/queries';
import { changedByWrite } from '../lib/query-keys';

/**
 * Transfers to the merchant's wallets that credited no order (DESIGN.md, "No transfer is ignored"),
 * newest first, a page at a time ("Load more"). Each can be attributed to an order: the merchant's
 * word, still checked on chain. The order events say when an attribution was credited (or turned
 * down), and the list is read again then: a credited transfer leaves it.
 */
export function UnattributedPage() {
  const { t } = useI18n();
  const f = useFormat();
  // Read again from the first page as deep as the merchant had loaded: nothing shown is dropped.
  const list = useInfiniteQuery(unattributedQuery);
  const items = list.data?.pages.reduce<UnattributedPayment[]>(
    (shown, page) => appendTransfers(shown, page.items),
    [],
  );

  const [pending, setPending] = useState<Attribution[]>([]);
  const pendingRef = useRef(pending);
  pendingRef.current = pending;
  const [outcomes, setOutcomes] = useState<AttributionOutcome[]>([]);
  // The query layer reads the list again when a transfer it shows is credited (it leaves the list).
  useLive({}, (events: WebhookEventBody[]) => {
    const found = attributionOutcomes(events, pendingRef.current);
    if (found.length === 0) return;
    const settled = new Set(found.map((o) => transferKey(o.attribution)));
    setPending((current) => current.filter((a) => !settled.has(transferKey(a))));
    setOutcomes((current) => [...found, ...current].slice(0, 10));
  });

  const onAttributed = (attribution: Attribution) =>
    setPending((current) => [
      ...current.filter((a) => transferKey(a) !== transferKey(attribution)),
      attribution,
    ]);

  return (
    <>
      <PageHeader title={t('navUnattributed')}>
        <button type="button" onClick={() => void list.refetch()} disabled={list.isPending}>
          {t('refresh')}
        </button>
      </PageHeader>
      <p className="muted page-intro">{t('unattributedIntro')}</p>
      <div aria-live="polite">
        {outcomes.map((o) => (
          <Outcome key={`${o.kind}-${transferKey(o.attribution)}`} outcome={o} />
        ))}
      </div>
      <Section title={t('unattributedList')}>
        <LoadedList
          list={{ ...list, isError: list.isError && !list.isFetchNextPageError, data: items }}
          empty={t('unattributedEmpty')}
        >
          {(items) => (
            <ul className="transfers">
              {items.map((p) => (
                <UnattributedItem
                  key={transferKey(p)}
                  payment={p}
                  attributedTo={pending.find((a) => transferKey(a) === transferKey(p))?.reference ?? null}
                  onAttributed={onAttributed}
                />
              ))}
            </ul>
          )}
        </LoadedList>
        {items && items.length > 0 && (
          <div className="load-more">
            {list.hasNextPage ? (
              <button
                type="button"
                onClick={() => void list.fetchNextPage()}
                disabled={list.isFetchingNextPage}
              >
                {list.isFetchingNextPage ? t('loading') : t('loadMore')}
              </button>
            ) : (
              <p className="muted small-text">{t('unattributedAllShown', { n: f.int(items.length) })}</p>
            )}
            {list.isFetchNextPageError && (
              <ErrorNotice error={list.error} onRetry={() => void list.fetchNextPage()} />
            )}
          </div>
        )}
      </Section>
    </>
  );
}

function Outcome({ outcome: o }: { outcome: AttributionOutcome }) {
  const { t } = useI18n();
  const f = useFormat();
  const reference = o.attribution.reference;
  const link = (
    <Link to={`/orders/${encodeURIComponent(reference)}`}>
      <code>{shortRef(reference)}</code>
    </Link>
  );
  if (o.kind === 'credited')
    return (
      <Notice kind="ok">
        {t('attributionCredited', { amount: f.token(o.amount, o.token) })} {link}
      </Notice>
    );
  return (
    <Notice kind="warn">
      {t('attributionRejected')} {link}
    </Notice>
  );
}

/** One transfer, what became of an attribution of it on this page, and who hears of a new one. */
type TransferProps = {
  payment: UnattributedPayment;
  attributedTo: string | null;
  onAttributed: (attribution: Attribution) => void;
};

function UnattributedItem({ payment: p, attributedTo, onAttributed }: TransferProps) {
  const { t } = useI18n();
  const f = useFormat();
  const headingId = useId();
  return (
    <li className="transfer" aria-labelledby={headingId}>
      <p className="transfer-head" id={headingId}>
        <strong className="amount">{f.token(p.amount, p.token)}</strong>{' '}
        <span className="chip">{networkName(p.network)}</span>{' '}
        <span className="muted">{f.dateTime(p.blockTime ?? p.createdAt)}</span>
      </p>
      <dl className="facts">
        <SenderFact network={p.network} from={p.from} />
        <Fact label={t('toYourWallet')}>
          <AddressLink network={p.network} address={p.to} />
        </Fact>
        <Fact label={t('transaction')}>
          <TxLink network={p.network} txId={p.txId} />
        </Fact>
        <Fact label={t('foundOn')}>{f.dateTimeLong(p.createdAt)}</Fact>
      </dl>
      <AttributeForm payment={p} attributedTo={attributedTo} onAttributed={onAttributed} />
    </li>
  );
}

function AttributeForm({ payment: p, attributedTo, onAttributed }: TransferProps) {
  const { t } = useI18n();
  const ids = useId();
  const refresh = useRefresh();
  const [reference, setReference] = useState('');
  const { busy, error, submit } = useFormSubmit(async () => {
    const wanted = reference.trim();
    // The transfer's own network: the order may be payable on several whose ids look alike.
    const body = { txId: p.txId, network: p.network };
    ok(await api.orders.submitTx({ params: { reference: wanted }, body }), 202);
    setReference('');
    refresh(changedByWrite.attribute(wanted));
    onAttributed({ network: p.network, txId: p.txId, reference: wanted });
  });
  return (
    <form className="attribute-form" onSubmit={submit} aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>{t('attributeToOrder')}</h3>
      <div aria-live="polite">
        {attributedTo && (
          <Notice kind="info">
            {t('attributedChecking', { reference: shortRef(attributedTo) })}{' '}
            <Link to={`/orders/${encodeURIComponent(attributedTo)}`}>{t('openOrder')}</Link>
          </Notice>
        )}
      </div>
      <div className="attribute-row">
        <TextField
          id={`${ids}-reference`}
          label={t('orderReference')}
          hint={t('attributeHint', { network: networkName(p.network) })}
          value={reference}
          required
          maxLength={44}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => setReference(e.target.value)}
        />
        <SubmitButton busy={busy} label={t('attribute')} />
      </div>
      {error != null && <ErrorNotice error={error} />}
    </form>
  );
}
