import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { Payout } from '../../../contract';
import { api, ok } from '../api';
import { DataTable } from '../components/DataTable';
import { WalletPayout } from '../components/payout/WalletPayout';
import { LiveIndicator } from '../components/LiveIndicator';
import {
  ConfirmButton,
  ErrorNotice,
  Fact,
  Loading,
  Notice,
  PageHeader,
  Section,
  StatusBadge,
  TxLink,
  UserText,
} from '../components/ui';
import { useI18n, type MessageKey } from '../i18n';
import { useAction } from '../lib/actions';
import { useFormat } from '../lib/format';
import { useLive, useTitle } from '../lib/hooks';
import { networkName, PAYOUT_ITEM_STATUS_KEYS, PAYOUT_STATUS_KEYS } from '../lib/labels';
import { useSandbox } from '../lib/networks';
import { payoutQuery, useRefresh } from '../lib/queries';
import { changedByWrite } from '../lib/query-keys';
import { useCan } from '../session';

/**
 * One payout: its status, approvals and deadline, the moves the member may make (approve a DRAFT,
 * cancel a DRAFT or APPROVED one; on a sandbox, send an APPROVED one with the sandbox's keys), its
 * CSV (a plain link, as the exports are), and its items with their transactions.
 */
export function PayoutPage() {
  const { id = '' } = useParams();
  const { t } = useI18n();
  const title = t('payoutTitle', { id });
  useTitle(title);
  const payout = useQuery(payoutQuery(id));
  const live = useLive({});
  return (
    <>
      <p>
        <Link to="/payouts">{t('backToPayouts')}</Link>
      </p>
      <PageHeader title={title}>
        {payout.data && (
          <a className="button" href={`/payouts/${encodeURIComponent(id)}.csv`} download>
            {t('downloadPayoutCsv')}
          </a>
        )}
      </PageHeader>
      <div className="list-head">
        <LiveIndicator live={live} />
      </div>
      {payout.isPending && <Loading label={t('loadingPayouts')} />}
      {payout.isError && <ErrorNotice error={payout.error} onRetry={() => void payout.refetch()} />}
      {payout.data && <PayoutDetails payout={payout.data} />}
    </>
  );
}

function PayoutDetails({ payout: p }: { payout: Payout }) {
  const { t } = useI18n();
  const f = useFormat();
  return (
    <>
      <Section title={t('payout')} actions={<PayoutMoves payout={p} />}>
        <dl className="facts">
          <Fact label={t('status')}>
            <StatusBadge status={p.status} label={t(PAYOUT_STATUS_KEYS[p.status])} />
          </Fact>
          <Fact label={t('payoutAbout')}>
            <UserText text={p.description} empty={t('noDescription')} />
          </Fact>
          <Fact label={t('payoutApprovals')}>
            {t('payoutApprovalsN', { given: p.approvals.length, required: p.approvalsRequired })}
          </Fact>
          <Fact label={t('created')}>{f.dateTime(p.createdAt)}</Fact>
          {p.deadlineAt && <Fact label={t('payoutDeadline')}>{f.dateTime(p.deadlineAt)}</Fact>}
        </dl>
        {p.status === 'DRAFT' && p.approvalsRequired === 2 && <p className="muted">{t('payoutTwoPeople')}</p>}
        {(p.status === 'APPROVED' || p.status === 'SENDING') && (
          <p className="muted">{t('payoutSendHint')}</p>
        )}
        <WalletPayout payout={p} />
      </Section>
      <DataTable
        wrapClassName="card flush"
        className="payout-items responsive"
        caption={t('payoutItemsCaption')}
        columns={[
          'network',
          'payoutRecipient',
          { key: 'amount', numeric: true },
          'status',
          'transaction',
          'reference',
        ]}
      >
        {p.items.map((item) => (
          <tr key={item.id}>
            <td data-label={t('network')}>{networkName(item.network)}</td>
            <td data-label={t('payoutRecipient')}>
              <code className="wrap">{item.to}</code>
            </td>
            <td data-label={t('amount')} className="num">
              {f.token(item.amount, item.token)}
            </td>
            <td data-label={t('status')}>
              <StatusBadge status={item.status} label={t(PAYOUT_ITEM_STATUS_KEYS[item.status])} />
              {item.failureReason && <div className="muted small-text">{item.failureReason}</div>}
            </td>
            <td data-label={t('transaction')}>
              {item.txId ? <TxLink network={item.network} txId={item.txId} /> : '—'}
            </td>
            <td data-label={t('reference')}>
              <UserText text={item.reference} empty="—" />
              {item.note && (
                <div className="muted small-text">
                  <UserText text={item.note} />
                </div>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}

type Move = 'approve' | 'cancel' | 'sandboxSend';

/** What this member may do to the payout now, each confirmed first; the API's refusal in words. */
function PayoutMoves({ payout: p }: { payout: Payout }) {
  const { t } = useI18n();
  const can = useCan();
  const sandbox = useSandbox();
  const refresh = useRefresh();
  const params = { params: { id: p.id } };
  const send: Record<Move, () => Promise<unknown>> = {
    approve: async () => ok(await api.payouts.approve(params), 200),
    cancel: async () => ok(await api.payouts.cancel(params), 200),
    sandboxSend: async () => ok(await api.sandbox.sendPayout(params), 200),
  };
  const action = useAction(async (move: Move) => {
    await send[move]();
    refresh(changedByWrite.payout(p.id));
  });
  const moves: { move: Move; label: MessageKey; question: MessageKey; yes: MessageKey; danger?: boolean }[] =
    [
      ...(p.status === 'DRAFT' && can('payouts:approve')
        ? [
            {
              move: 'approve' as const,
              label: 'approvePayout' as const,
              question: 'confirmApprovePayout' as const,
              yes: 'yesApprovePayout' as const,
            },
          ]
        : []),
      ...(p.status === 'APPROVED' && sandbox && can('payouts:write')
        ? [
            {
              move: 'sandboxSend' as const,
              label: 'sandboxSendPayout' as const,
              question: 'confirmSandboxSendPayout' as const,
              yes: 'yesSandboxSendPayout' as const,
            },
          ]
        : []),
      ...((p.status === 'DRAFT' || p.status === 'APPROVED') && can('payouts:write')
        ? [
            {
              move: 'cancel' as const,
              label: 'cancelPayout' as const,
              question: 'confirmCancelPayout' as const,
              yes: 'yesCancelPayout' as const,
              danger: true,
            },
          ]
        : []),
    ];
  if (moves.length === 0 && action.error == null) return null;
  return (
    <div>
      <div className="actions">
        {moves.map((m) => (
          <ConfirmButton
            key={m.move}
            label={t(m.label)}
            question={t(m.question)}
            confirmLabel={t(m.yes)}
            danger={m.danger}
            disabled={action.busy}
            onConfirm={() => action.run(m.move)}
          />
        ))}
      </div>
      {action.error != null && <ErrorNotice error={action.error} />}
      {action.busy && <Notice kind="info">{t('working')}</Notice>}
    </div>
  );
}
