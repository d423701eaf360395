import { useState } from 'react';
import { isEvmNetwork, type Payout } from '../../../../contract';
import { useI18n, type MessageKey } from '../../i18n';
import { useAction } from '../../lib/actions';
import { networkName } from '../../lib/labels';
import { findEvmWallet, payFromBrowserWallet, type PayoutStep } from '../../lib/payout-wallet';
import { useRefresh } from '../../lib/queries';
import { changedByWrite } from '../../lib/query-keys';
import { useCan } from '../../session';
import { ErrorNotice, Notice } from '../ui';

const STEP_KEYS: Record<PayoutStep['step'], MessageKey> = {
  connect: 'payoutStepConnect',
  deploy: 'payoutStepDeploy',
  approve: 'payoutStepApprove',
  pay: 'payoutStepPay',
  done: 'payoutStepDone',
};

/**
 * Signs an APPROVED (or SENDING) payout's pending EVM items with the merchant's browser wallet
 * (lib/payout-wallet.ts), saying at each step what the wallet is asked to confirm.
 */
export function WalletPayout({ payout: p }: { payout: Payout }) {
  const { t } = useI18n();
  const can = useCan();
  const refresh = useRefresh();
  const [step, setStep] = useState<PayoutStep | null>(null);
  const action = useAction(async () => {
    const provider = await findEvmWallet();
    if (!provider) throw new Error(t('noBrowserWallet'));
    try {
      await payFromBrowserWallet(provider, p.id, setStep);
    } finally {
      refresh(changedByWrite.payout(p.id));
    }
  });
  const pending = p.items.some((i) => i.status === 'PENDING' && isEvmNetwork(i.network));
  if ((p.status !== 'APPROVED' && p.status !== 'SENDING') || !can('payouts:write')) return null;
  if (!pending && step?.step !== 'done') return null;
  return (
    <div className="wallet-payout">
      <p className="muted">{t('payoutWalletHint')}</p>
      {pending && (
        <button
          type="button"
          className="button primary"
          disabled={action.busy}
          onClick={() => void action.run()}
        >
          {t('payWithWallet')}
        </button>
      )}
      {step && (
        <Notice kind={step.step === 'done' ? 'ok' : 'info'}>
          {t(STEP_KEYS[step.step], 'network' in step ? { network: networkName(step.network) } : {})}
        </Notice>
      )}
      {action.error != null && <ErrorNotice error={action.error} />}
    </div>
  );
}
