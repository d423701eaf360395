import { useCallback, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { UnattributedPayment, WebhookEventBody } from '../../../contract';
import { api, ok } from '../api';
import { AddressLink } from '../components/claims';
import { SubmitButton, TextField } from '../components/form';
import { LoadedList } from '../components/LoadedList';
import { ErrorNotice, Notice, PageHeader, Section, TxLink } from '../components/ui';
import { useI18n } from '../i18n';
import { useAction, useFormSubmit } from '../lib/actions';
import {
  appendTransfers,
  attributionOutcomes,
  transferKey,
  type Attribution,
  type AttributionOutcome,
} from '../lib/claims';
import { useFormat } from '../lib/format';
import { useEvents, useLoad, useTitle, type Loaded } from '../lib/hooks';
import { networkName } from '../lib/labels';
import { shortRef } from './Orders';

const PER_PAGE = 20;

type Shown = { items: UnattributedPayment[]; nextCursor: string | null };

const readPage = async (cursor: string): Promise<Shown> => {
  const page = ok(await api.claims.unattributed({ query: { per_page: PER_PAGE, cursor } }), 200);
  return { items: page.items, nextCursor: page.nextCursor };
};

/** The transfers of what was loaded, as LoadedList shows a list. */
const itemsOf = (list: Loaded<Shown>): Loaded<UnattributedPayment[]> =>
  list.state === 'loading'
    ? list
    : list.state === 'ok'
      ? { state: 'ok', data: list.data.items }
      : { state: 'error', error: list.error, data: list.data?.items };

/**
 * Transfers to the merchant's wallets that credited no order (DESIGN.md, "No transfer is ignored"),
 * newest first, a page at a time ("Load more"). Each can be attributed to an order: the merchant's
 * word, still checked on chain. The order events say when an attribution was credited (or turned
 * down), and the list is read again then: a credited transfer leaves it.
 */
export function UnattributedPage() {
  const { t } = useI18n();
  const f = useFormat();
  useTitle(t('navUnattributed'));
  // Read again from the first page as deep as the merchant had loaded: nothing shown is dropped.
  const depth = useRef(0);
  const [list, reload, setList] = useLoad(async () => {
    let shown = await readPage('');
    while (shown.nextCursor && shown.items.length < depth.current) {
      const next = await readPage(shown.nextCursor);
      shown = { items: appendTransfers(shown.items, next.items), nextCursor: next.nextCursor };
    }
    depth.current = shown.items.length;
    return shown;
  }, []);

  const more = useAction(async () => {
    const cursor = list.data?.nextCursor;
    if (!cursor) return;
    const next = await readPage(cursor);
    setList((previous) => {
      if (!previous.data) return previous;
      const items = appendTransfers(previous.data.items, next.items);
      depth.current = items.length;
      return { state: 'ok', data: { items, nextCursor: next.nextCursor } };
    });
  });

  const [pending, setPending] = useState<Attribution[]>([]);
  const pendingRef = useRef(pending);
  pendingRef.current = pending;
  const [outcomes, setOutcomes] = useState<AttributionOutcome[]>([]);
  const onEvents = useCallback(
    (events: WebhookEventBody[], resync?: boolean) => {
      if (resync) return void reload();
      const found = attributionOutcomes(events, pendingRef.current);
      if (found.length === 0) return;
      const settled = new Set(found.map((o) => transferKey(o.attribution)));
      setPending((current) => current.filter((a) => !settled.has(transferKey(a))));
      setOutcomes((current) => [...found, ...current].slice(0, 10));
      void reload();
    },
    [reload],
  );
  useEvents(onEvents);

  const onAttributed = (attribution: Attribution) =>
    setPending((current) => [
      ...current.filter((a) => transferKey(a) !== transferKey(attribution)),
      attribution,
    ]);

  return (
    <>
      <PageHeader title={t('navUnattributed')}>
        <button type="button" onClick={() => void reload(false)} disabled={list.state === 'loading'}>
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
        <LoadedList list={itemsOf(list)} reload={reload} empty={t('unattributedEmpty')}>
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
        {list.data && list.data.items.length > 0 && (
          <div className="load-more">
            {list.data.nextCursor ? (
              <button type="button" onClick={() => void more.run()} disabled={more.busy}>
                {more.busy ? t('loading') : t('loadMore')}
              </button>
            ) : (
              <p className="muted small-text">
                {t('unattributedAllShown', { n: f.int(list.data.items.length) })}
              </p>
            )}
            {more.error != null && <ErrorNotice error={more.error} onRetry={() => void more.run()} />}
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
        <div>
          <dt>{t('sender')}</dt>
          <dd>{p.from ? <AddressLink network={p.network} address={p.from} /> : t('senderUnknown')}</dd>
        </div>
        <div>
          <dt>{t('toYourWallet')}</dt>
          <dd>
            <AddressLink network={p.network} address={p.to} />
          </dd>
        </div>
        <div>
          <dt>{t('transaction')}</dt>
          <dd>
            <TxLink network={p.network} txId={p.txId} />
          </dd>
        </div>
        <div>
          <dt>{t('foundOn')}</dt>
          <dd>{f.dateTimeLong(p.createdAt)}</dd>
        </div>
      </dl>
      <AttributeForm payment={p} attributedTo={attributedTo} onAttributed={onAttributed} />
    </li>
  );
}

function AttributeForm({ payment: p, attributedTo, onAttributed }: TransferProps) {
  const { t } = useI18n();
  const ids = useId();
  const [reference, setReference] = useState('');
  const { busy, error, submit } = useFormSubmit(async () => {
    const wanted = reference.trim();
    ok(await api.orders.submitTx({ params: { reference: wanted }, body: { txId: p.txId } }), 202);
    setReference('');
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
