import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { Payout } from '../../../contract';
import { api, ok } from '../api';
import { DataTable } from '../components/DataTable';
import { DetailFrame } from '../components/DetailFrame';
import { MoveButtons } from '../components/MoveButtons';
import { WalletPayout } from '../components/payout/WalletPayout';
import { Fact, Section, StatusBadge, TxLink, UserText } from '../components/ui';
import { useI18n } from '../i18n';
import { useFormat } from '../lib/format';
import { useLive } from '../lib/hooks';
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
  const payout = useQuery(payoutQuery(id));
  const live = useLive({});
  return (
    <DetailFrame
      back={{ to: '/payouts', label: t('backToPayouts') }}
      title={t('payoutTitle', { id })}
      query={payout}
      live={live}
      loadingLabel={t('loadingPayouts')}
      headerExtras={() => (
        <a className="button" href={`/payouts/${encodeURIComponent(id)}.csv`} download>
          {t('downloadPayoutCsv')}
        </a>
      )}
    >
      {(p) => <PayoutDetails payout={p} />}
    </DetailFrame>
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

type PayoutMove = 'approve' | 'cancel' | 'sandboxSend';

/** What this member may do to the payout now. */
function PayoutMoves({ payout: p }: { payout: Payout }) {
  const can = useCan();
  const sandbox = useSandbox();
  const refresh = useRefresh();
  const params = { params: { id: p.id } };
  const send: Record<PayoutMove, () => Promise<unknown>> = {
    approve: async () => ok(await api.payouts.approve(params), 200),
    cancel: async () => ok(await api.payouts.cancel(params), 200),
    sandboxSend: async () => ok(await api.sandbox.sendPayout(params), 200),
  };
  const run = async (move: PayoutMove) => {
    await send[move]();
    refresh(changedByWrite.payout(p.id));
  };
  return (
    <MoveButtons
      sayBusy
      run={run}
      moves={[
        p.status === 'DRAFT' &&
          can('payouts:approve') && {
            move: 'approve',
            label: 'approvePayout',
            question: 'confirmApprovePayout',
            yes: 'yesApprovePayout',
          },
        p.status === 'APPROVED' &&
          sandbox &&
          can('payouts:write') && {
            move: 'sandboxSend',
            label: 'sandboxSendPayout',
            question: 'confirmSandboxSendPayout',
            yes: 'yesSandboxSendPayout',
          },
        (p.status === 'DRAFT' || p.status === 'APPROVED') &&
          can('payouts:write') && {
            move: 'cancel',
            label: 'cancelPayout',
            question: 'confirmCancelPayout',
            yes: 'yesCancelPayout',
            danger: true,
          },
      ]}
    />
  );
}
