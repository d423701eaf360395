import type { Address } from 'viem';
import type { X402EvmNetwork } from './x402-networks';

const EIP5267_ABI = [
  {
    type: 'function',
    name: 'eip712Domain',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'fields', type: 'bytes1' },
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
      { name: 'salt', type: 'bytes32' },
      { name: 'extensions', type: 'uint256[]' },
    ],
  },
] as const;
const NAME_VERSION_ABI = [
  { type: 'function', name: 'name', stateMutability: 'view', inputs: [], outputs: [{ type: 'string' }] },
  { type: 'function', name: 'version', stateMutability: 'view', inputs: [], outputs: [{ type: 'string' }] },
] as const;

export type Eip712Domain = { name: string; version: string };

/**
 * Per network (the service's client of it) and token: a token's domain does not change (its name and
 * version are immutable). Kept with the network's client, not by chain id and address alone, so two
 * services in one process on different chains of one id never read each other's.
 */
const known = new WeakMap<X402EvmNetwork, Map<string, Promise<Eip712Domain>>>();

/**
 * The EIP-712 name and version of an EIP-3009 token, read from the contract: EIP-5267's
 * eip712Domain(), else name() and version() (Circle's USDC before EIP-5267). Remembered once read;
 * a failed read is tried again next time.
 */
export function eip712DomainOf(net: X402EvmNetwork, token: Address): Promise<Eip712Domain> {
  const key = token.toLowerCase();
  let ofNetwork = known.get(net);
  if (!ofNetwork) known.set(net, (ofNetwork = new Map()));
  let domain = ofNetwork.get(key);
  if (!domain) {
    domain = read(net, token);
    ofNetwork.set(key, domain);
    domain.catch(() => ofNetwork.delete(key));
  }
  return domain;
}

async function read(net: X402EvmNetwork, token: Address): Promise<Eip712Domain> {
  try {
    const [, name, version] = await net.client.readContract({
      address: token,
      abi: EIP5267_ABI,
      functionName: 'eip712Domain',
    });
    return { name, version };
  } catch {
    const [name, version] = await Promise.all([
      net.client.readContract({ address: token, abi: NAME_VERSION_ABI, functionName: 'name' }),
      net.client.readContract({ address: token, abi: NAME_VERSION_ABI, functionName: 'version' }),
    ]);
    return { name, version };
  }
}
