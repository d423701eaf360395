import { isEvmNetwork, type EvmNetwork, type Network } from '../../../contract';
import { ask, switchChain, walletAccount } from '../../../sdk/src/evm-provider';
import type { Eip1193Provider } from '../../../sdk/src/payer';
import { api, ok } from '../api';
import { NotThePayingWallet } from './paying-wallet';

/**
 * Pays a payout's EVM items from the merchant's browser wallet, with the connectors the payer's
 * helpers use (sdk/src/evm-provider.ts: connect, switch chain, send): on each network first the
 * PayoutBatch contract if the account has none (deployed, mined, reported until the service
 * verified it), then the batch's approve and pay() transactions in order, each mined before the
 * next, each pay() reported. The service verifies every item on chain; this only sends.
 */

export type PayoutStep =
  | { step: 'connect' }
  | { step: 'deploy' | 'approve'; network: EvmNetwork }
  | { step: 'pay'; network: Network }
  | { step: 'done' };

const RECEIPT_POLL_MS = 1000;
const RECEIPT_WAIT_MS = 180_000;

/** The first wallet that announces itself (EIP-6963), else window.ethereum, else null. */
export function findEvmWallet(graceMs = 300): Promise<Eip1193Provider | null> {
  return new Promise((resolve) => {
    const announced = (event: Event) => {
      const provider = (event as CustomEvent<{ provider?: Eip1193Provider }>).detail?.provider;
      if (typeof provider?.request !== 'function') return;
      window.removeEventListener('eip6963:announceProvider', announced);
      resolve(provider);
    };
    window.addEventListener('eip6963:announceProvider', announced);
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    setTimeout(() => {
      window.removeEventListener('eip6963:announceProvider', announced);
      const injected = (window as { ethereum?: Eip1193Provider }).ethereum;
      resolve(typeof injected?.request === 'function' ? injected : null);
    }, graceMs);
  });
}

async function send(
  provider: Eip1193Provider,
  from: string,
  tx: { to?: string; data: string },
): Promise<string> {
  const hash = await ask(
    provider,
    'eth_sendTransaction',
    [{ from, ...tx, value: '0x0' }],
    'The wallet did not send',
  );
  if (typeof hash !== 'string') throw new Error('the wallet returned no transaction hash');
  return hash;
}

/** Waits until the transaction is mined; a reverted one is an error (nothing after it is sent). */
async function mined(provider: Eip1193Provider, hash: string): Promise<void> {
  const until = Date.now() + RECEIPT_WAIT_MS;
  for (;;) {
    const receipt = (await ask(
      provider,
      'eth_getTransactionReceipt',
      [hash],
      'The wallet could not read',
    )) as {
      status?: string;
    } | null;
    if (receipt?.status === '0x1') return;
    if (receipt?.status === '0x0') throw new Error(`transaction ${hash} failed on chain`);
    if (Date.now() > until) throw new Error(`transaction ${hash} was not mined in time`);
    await new Promise((r) => setTimeout(r, RECEIPT_POLL_MS));
  }
}

/** Reports a deployment until the service has it final and verified (409 while not final yet). */
async function reportDeployment(network: EvmNetwork, txId: string): Promise<void> {
  const until = Date.now() + RECEIPT_WAIT_MS;
  for (;;) {
    const answer = await api.payouts.reportBatchContract({ params: { network }, body: { txId } });
    if (answer.status !== 409 || Date.now() > until) {
      ok(answer, 200);
      return;
    }
    await new Promise((r) => setTimeout(r, RECEIPT_POLL_MS));
  }
}

export async function payFromBrowserWallet(
  provider: Eip1193Provider,
  payoutId: string,
  onStep: (step: PayoutStep) => void,
): Promise<void> {
  onStep({ step: 'connect' });
  const account = await walletAccount(provider);
  const payout = ok(await api.payouts.get({ params: { id: payoutId } }), 200);
  const networks = [
    ...new Set(payout.items.filter((i) => i.status === 'PENDING').map((i) => i.network)),
  ].filter(isEvmNetwork);
  const contracts = ok(await api.payouts.batchContracts(), 200).items;
  for (const network of networks) {
    if (contracts.some((c) => c.network === network && c.status === 'VERIFIED')) continue;
    onStep({ step: 'deploy', network });
    const deployment = ok(await api.payouts.deployBatchContract({ body: { network } }), 200);
    mustBe(account, deployment.from);
    await switchChain(provider, deployment.transaction.chainId);
    const hash = await send(provider, account, { data: deployment.transaction.data });
    await mined(provider, hash);
    await reportDeployment(network, hash);
  }
  const { transactions } = ok(
    await api.payouts.transactions({ params: { id: payoutId }, query: { batch: 'true' } }),
    200,
  );
  for (const tx of transactions) {
    if (typeof tx.transaction === 'string' || !isEvmNetwork(tx.network)) continue;
    mustBe(account, tx.from);
    onStep({ step: tx.purpose, network: tx.network });
    await switchChain(provider, tx.transaction.chainId);
    const hash = await send(provider, account, { to: tx.transaction.to, data: tx.transaction.data });
    await mined(provider, hash);
    if (tx.purpose === 'pay')
      ok(
        await api.payouts.report({ params: { id: payoutId }, body: { network: tx.network, txId: hash } }),
        200,
      );
  }
}

/** The wallet must be the paying wallet: the service verifies transfers from it alone. */
function mustBe(account: string, paying: string) {
  if (account.toLowerCase() !== paying.toLowerCase()) throw new NotThePayingWallet(paying, [account]);
}
