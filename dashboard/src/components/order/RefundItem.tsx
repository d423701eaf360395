import { useState } from 'react';
import { refundHoldsAmount, type Refund } from '../../../../contract';
import { api, ok } from '../../api';
import { useI18n } from '../../i18n';
import { useFormat } from '../../lib/format';
import { REFUND_STATUS_KEYS } from '../../lib/labels';
import { useRefresh } from '../../lib/queries';
import { changedByWrite } from '../../lib/query-keys';
import { RefundCost } from './RefundCost';
import { SandboxSendRefund } from './SandboxSendRefund';
import {
  ConfirmButton,
  CopyField,
  ErrorNotice,
  Fact,
  Notice,
  QrCode,
  StatusBadge,
  TxLink,
  UserText,
} from '../ui';

/** One refund: where it goes and why, what it waits for (an address, the approval, the transfer). */
export function RefundItem({ refund: r }: { refund: Refund }) {
  const { t } = useI18n();
  const f = useFormat();
  const refresh = useRefresh();
  const [approveError, setApproveError] = useState<unknown>(null);
  const approve = async () => {
    setApproveError(null);
    try {
      ok(await api.refunds.approve({ params: { reference: r.orderReference, id: r.id } }), 200);
      refresh(changedByWrite.refund(r.orderReference));
    } catch (failure) {
      setApproveError(failure);
    }
  };
  // A FAILED refund whose transfer may still land: its amount stays held until then.
  const lateWatch = r.status === 'FAILED' && refundHoldsAmount(r, new Date()) ? r.lateUntil : null;
  return (
    <li className="refund">
      <div className="refund-head">
        <StatusBadge status={r.status} label={t(REFUND_STATUS_KEYS[r.status])} />
        <strong className="amount">{f.token(r.amount, r.token)}</strong>
        {r.late && <span className="muted">({t('refundLate')})</span>}
        <span className="muted">{f.dateTime(r.createdAt)}</span>
      </div>
      <dl className="facts">
        <Fact label={t('refundTo')}>
          {r.to ? <code className="wrap">{r.to}</code> : t('waitingPayerAddress')}
        </Fact>
        <Fact label={t('reason')}>
          <UserText text={r.reason} />
        </Fact>
        {(r.status === 'AWAITING_ADDRESS' || r.status === 'AWAITING_APPROVAL' || r.status === 'PENDING') && (
          <Fact label={t('deadline')}>{f.dateTime(r.deadlineAt)}</Fact>
        )}
        {r.txId && (
          <Fact label={t('transaction')}>
            <TxLink network={r.network} txId={r.txId} />
          </Fact>
        )}
        {r.failureReason && (
          <Fact label={t('failureReason')}>
            <UserText text={r.failureReason} />
          </Fact>
        )}
      </dl>
      {r.status === 'AWAITING_ADDRESS' && <p className="hint">{t('refundAskPayerHint')}</p>}
      {r.status === 'AWAITING_APPROVAL' && r.to && (
        <div className="approve-refund">
          <Notice kind="warn">{t('refundApprovalHint')}</Notice>
          <div className="row-buttons">
            <ConfirmButton
              label={t('approveRefund')}
              question={t('approveRefundQuestion', { address: r.to })}
              confirmLabel={t('approveRefundConfirm')}
              onConfirm={approve}
            />
          </div>
          {approveError != null && <ErrorNotice error={approveError} />}
        </div>
      )}
      {lateWatch && <p className="hint">{t('refundLateWatch', { until: f.dateTime(lateWatch) })}</p>}
      <CopyField label={t('refundPageLink')} value={r.refundUrl} />
      <RefundCost refund={r} />
      <SandboxSendRefund refund={r} />
      {r.status === 'PENDING' && r.payUrl && (
        <div className="sign-refund">
          <p>{t('refundSignHint', { wallet: r.from })}</p>
          <div className="qr-row">
            <QrCode text={r.qrData ?? r.payUrl} alt={t('refundQrAlt')} />
            <div className="grow">
              <CopyField label={t('walletLink')} value={r.payUrl} />
              <p>
                <a href={r.payUrl}>{t('openInWallet')}</a>
              </p>
            </div>
          </div>
        </div>
      )}
    </li>
  );
}
