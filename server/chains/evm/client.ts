import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  createPublicClient,
  erc20Abi,
  http,
  type Address,
  type PublicClient,
} from 'viem';
import { formatUnits } from '../../../contract/decimal';
import type { PaymentTarget } from '../chain-adapter';
import { PayerAccountError, rpcCall } from '../chain-errors';
import type { RpcEndpointPool } from '../rpc-endpoints';

/**
 * A viem client over the network's endpoint pool (which fails over between endpoints itself, so
 * viem does not retry). Creating it contacts nothing.
 */
export function createEvmClient(pool: RpcEndpointPool, timeoutMs: number): PublicClient {
  return createPublicClient({
    transport: http(pool.urls[0], {
      fetchFn: pool.fetch,
      retryCount: 0,
      // The pool gives each endpoint `timeoutMs`; viem must wait for the whole failover.
      timeout: timeoutMs * pool.urls.length + 1000,
    }),
  });
}

/** Runs one RPC call of an EVM network; a failure becomes ChainUnavailableError. */
export const evmRpc = <T>(network: string, method: string, call: () => Promise<T>) =>
  rpcCall(network, method, call);

/**
 * decimals() of a token contract (`eth_call` at latest, which TRON's JSON-RPC takes too); an
 * address that answers but not as a token throws a plain Error, an unreachable chain ChainUnavailableError.
 */
export async function readErc20Decimals(
  client: PublicClient,
  network: string,
  contract: Address,
): Promise<number> {
  try {
    return await client.readContract({ address: contract, abi: erc20Abi, functionName: 'decimals' });
  } catch (error) {
    const notAToken =
      error instanceof BaseError &&
      error.walk(
        (e) => e instanceof ContractFunctionZeroDataError || e instanceof ContractFunctionRevertedError,
      );
    if (notAToken) throw new Error(`${contract} is not a token contract`);
    return evmRpc(network, 'decimals', () => Promise.reject(error));
  }
}

/** A payer that names itself is told now, not by a failed transaction, that its token balance is short. */
export async function checkTokenBalance(
  client: PublicClient,
  network: string,
  holder: { token: Address; payer: Address },
  target: Pick<PaymentTarget, 'amountUnits' | 'decimals' | 'token'>,
): Promise<void> {
  const balance = await evmRpc(network, 'balanceOf', () =>
    client.readContract({
      address: holder.token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [holder.payer],
    }),
  );
  if (balance < target.amountUnits)
    throw new PayerAccountError(
      `holds ${formatUnits(balance, target.decimals, 0)} ${target.token}, less than the ${formatUnits(target.amountUnits, target.decimals, 0)} ${target.token} due`,
    );
}
