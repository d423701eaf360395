import { getAddress, type Hash, type PublicClient } from 'viem';
import type { ObservedDeployment } from '../../chain-adapter';
import { evmRpc } from '../client';

type RawReceipt = { status: string; blockNumber: string; from: string; contractAddress: string | null };

/**
 * A deployment read at the service's finality: who sent it (the receipt's `from`), the address it
 * made (the receipt's, never a claimed one) and the code at that address now.
 */
export async function readEvmDeployment(
  client: PublicClient,
  opts: { network: string; confirmations: number },
  txId: string,
): Promise<ObservedDeployment> {
  const call = <T>(method: string, fn: () => Promise<T>) => evmRpc(opts.network, method, fn);
  const receipt = (await call('eth_getTransactionReceipt', () =>
    client.request({ method: 'eth_getTransactionReceipt', params: [txId as Hash] }),
  )) as unknown as RawReceipt | null;
  if (!receipt) return { state: 'not_found' };
  const head = await call('eth_blockNumber', () => client.getBlockNumber({ cacheTime: 0 }));
  if (head - BigInt(receipt.blockNumber) < BigInt(opts.confirmations)) return { state: 'not_final' };
  const contractAddress = receipt.contractAddress ? getAddress(receipt.contractAddress) : null;
  const code = contractAddress
    ? ((await call('eth_getCode', () => client.getCode({ address: contractAddress }))) ?? '0x')
    : '0x';
  return {
    state: receipt.status === '0x1' ? 'final' : 'failed',
    from: getAddress(receipt.from),
    contractAddress,
    code: code.toLowerCase(),
  };
}
