import { useState } from 'react';
import type { Refund } from '../../../../contract';
import { api, ok } from '../../api';
import { useI18n } from '../../i18n';
import { useAction } from '../../lib/actions';
import { shortTx } from '../../lib/format';
import { useSandbox } from '../../lib/networks';
import { useRefresh } from '../../lib/queries';
import { changedByWrite } from '../../lib/query-keys';
import { ErrorNotice, Notice } from '../ui';

/**
 * On a sandbox, a PENDING refund can be sent without a wallet app: the sandbox holds the key of the
 * merchant's receiving wallet and signs the very transaction the refund shows
 * (POST /sandbox/refunds/{id}/send). The refund then SUCCEEDS as any does, once verified on chain.
 */
export function SandboxSendRefund({ refund }: { refund: Refund }) {
  const { t } = useI18n();
  const refresh = useRefresh();
  const sandbox = useSandbox();
  const [txId, setTxId] = useState<string | null>(null);
  const { busy, error, run } = useAction(async () => {
    const sent = ok(await api.sandbox.sendRefund({ params: { id: refund.id } }), 200);
    setTxId(sent.txId);
    refresh(changedByWrite.refund(refund.orderReference));
  });
  // Once the refund is no longer PENDING its badge and transaction say the rest.
  if (!sandbox || refund.status !== 'PENDING') return null;
  return (
    <div className="sandbox-refund">
      {txId ? (
        <Notice kind="ok">{t('sandboxRefundSent', { tx: shortTx(txId) })}</Notice>
      ) : (
        <button type="button" className="primary" disabled={busy} onClick={() => void run()}>
          {busy ? t('working') : t('sandboxSendRefund')}
        </button>
      )}
      {error != null && <ErrorNotice error={error} />}
    </div>
  );
}
