import { eip3009ABI } from '@x402/evm';
import { getAddress, parseAbiItem, type Address, type Hex } from 'viem';
import type { Deps } from '../deps';
import type { X402EvmNetwork } from './x402-networks';

/** One EIP-3009 authorization, as far as settling it once is concerned. */
export type Eip3009Authorization = {
  caip2: `eip155:${number}`;
  token: Address;
  authorizer: Address;
  nonce: Hex;
};

/** The settlement key of an authorization (x402_settlements): its chain, token, authorizer and nonce. */
export const authorizationKey = (a: Eip3009Authorization): string =>
  [a.caip2, a.token, a.authorizer, a.nonce].map((p) => p.toLowerCase()).join(':');

/** The authorization a settlement key names (authorizationKey's inverse). */
export function authorizationOfKey(key: string): Eip3009Authorization {
  const [namespace, chainId, token, authorizer, nonce] = key.split(':');
  return {
    caip2: `${namespace}:${chainId}` as Eip3009Authorization['caip2'],
    token: getAddress(token!),
    authorizer: getAddress(authorizer!),
    nonce: nonce as Hex,
  };
}

/** Whether the authorization was used on chain (the token's `authorizationState`). */
export async function authorizationUsed(net: X402EvmNetwork, a: Eip3009Authorization): Promise<boolean> {
  return net.client.readContract({
    address: a.token,
    abi: eip3009ABI,
    functionName: 'authorizationState',
    args: [a.authorizer, a.nonce],
  });
}

const AUTHORIZATION_USED = parseAbiItem(
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
);

/**
 * The transaction that used the authorization, from the token's `AuthorizationUsed` log among the
 * last EVM_LOG_RANGE blocks (one eth_getLogs call, as providers cap ranges); null if not there.
 */
export async function transactionThatUsed(
  deps: Pick<Deps, 'config'>,
  net: X402EvmNetwork,
  a: Eip3009Authorization,
): Promise<Hex | null> {
  const latest = await net.client.getBlockNumber();
  const range = BigInt(deps.config.EVM_LOG_RANGE);
  const logs = await net.client.getLogs({
    address: a.token,
    event: AUTHORIZATION_USED,
    args: { authorizer: a.authorizer, nonce: a.nonce },
    fromBlock: latest >= range ? latest - range + 1n : 0n,
    toBlock: latest,
  });
  return logs[0]?.transactionHash ?? null;
}
