import { useState } from 'react';
import { isEvmNetwork, type Network, type Payout } from '../../../../contract';
import { useI18n, type MessageKey } from '../../i18n';
import { useAction } from '../../lib/actions';
import { networkName } from '../../lib/labels';
import { useNetworks } from '../../lib/networks';
import { findSolanaWallet, paySolanaFromBrowserWallet } from '../../lib/payout-solana-wallet';
import { NotThePayingWallet } from '../../lib/paying-wallet';
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
 * Signs an APPROVED (or SENDING) payout's pending EVM items (lib/payout-wallet.ts) and Solana items
 * (lib/payout-solana-wallet.ts) with the merchant's browser wallets, saying at each step what the
 * wallet is asked to confirm.
 */
export function WalletPayout({ payout: p }: { payout: Payout }) {
  const { t } = useI18n();
  const can = useCan();
  const refresh = useRefresh();
  const [step, setStep] = useState<PayoutStep | null>(null);
  const solanaChain = useNetworks().find('SOLANA')?.walletChain ?? null;
  const pendingOn = (family: (network: Network) => boolean) =>
    p.items.some((i) => i.status === 'PENDING' && family(i.network));
  const evmPending = pendingOn(isEvmNetwork);
  const solanaPending = solanaChain !== null && pendingOn((n) => n === 'SOLANA');
  const action = useAction(async () => {
    // Both wallets are found before anything is sent: a batch is not left half paid for want of one.
    const evm = evmPending ? await findEvmWallet() : null;
    const solana = solanaPending ? findSolanaWallet() : null;
    if ((evmPending && !evm) || (solanaPending && !solana)) throw new Error(t('noBrowserWallet'));
    try {
      if (evm) await payFromBrowserWallet(evm, p.id, setStep);
      if (solana && solanaChain) await paySolanaFromBrowserWallet(solana, p.id, solanaChain, setStep);
      setStep({ step: 'done' });
    } catch (error) {
      // Nothing more is under way: the failure says what happened.
      setStep(null);
      throw error;
    } finally {
      refresh(changedByWrite.payout(p.id));
    }
  });
  const pending = evmPending || solanaPending;
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
      {action.error instanceof NotThePayingWallet ? (
        <Notice kind="warn">
          {t('connectPayingWallet', {
            paying: action.error.paying,
            shared: action.error.shared.join(', ') || '—',
          })}
        </Notice>
      ) : (
        action.error != null && <ErrorNotice error={action.error} />
      )}
    </div>
  );
}
