import { encodeFunctionData, erc20Abi, getAddress, isAddress, zeroAddress, type Address } from 'viem';
import type { Token } from '../../../contract';
import { ApiError } from '../../errors';
import { formatUnits, TOKEN_DECIMALS } from '../../lib/decimal';
import type { ChainAdapter, EvmPaymentTransaction, PaymentTarget } from '../chain-adapter';

export type EvmAdapterOptions = {
  network: 'POLYGON' | 'ETHEREUM';
  chainId: number;
  usdtContract: string;
  /** Not needed to build payments; kept for the verification side. */
  rpcUrl?: string;
};

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/** The EIP-55 form of an address, or null. Mixed case must carry a correct checksum; all lower or all upper case carries none. */
export function normalizeEvmAddress(value: string): Address | null {
  const unchecksummed = value.slice(2) === value.slice(2).toUpperCase();
  if (!isAddress(value, { strict: !unchecksummed })) return null;
  const address = getAddress(value);
  return address === zeroAddress ? null : address;
}

export function createEvmAdapter(opts: EvmAdapterOptions): ChainAdapter {
  const usdt = normalizeEvmAddress(opts.usdtContract);
  if (!usdt)
    throw new Error(`USDT contract for ${opts.network} is not an EVM address: "${opts.usdtContract}"`);
  const contracts: Record<Token, Address | null> = { USDT: usdt, USDC: null };

  function recipientOf(target: PaymentTarget): Address {
    const recipient = normalizeEvmAddress(target.recipient);
    if (!recipient) throw new Error(`order recipient is not an EVM address: "${target.recipient}"`);
    return recipient;
  }

  return {
    network: opts.network,

    tokenMint: (token) => contracts[token],

    normalizeAddress: normalizeEvmAddress,

    isWellFormedTxId: (txId) => TX_HASH.test(txId),

    paymentUri: (target) =>
      `ethereum:${target.tokenMint}@${opts.chainId}/transfer?address=${target.recipient}&uint256=${target.amountUnits.toString()}`,

    async buildPaymentTransaction(target, account): Promise<EvmPaymentTransaction> {
      if (account !== undefined && account !== '' && !normalizeEvmAddress(account))
        throw ApiError.field(
          'query.account',
          'must be an EVM address (0x followed by 40 hex digits, EIP-55 checksum if mixed case)',
        );
      const amount = formatUnits(target.amountUnits, TOKEN_DECIMALS, 0);
      return {
        kind: 'evm',
        chainId: opts.chainId,
        to: getAddress(target.tokenMint),
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [recipientOf(target), target.amountUnits],
        }),
        value: '0',
        message: target.message || `Pay ${amount} ${target.token}`,
      };
    },

    // On-chain verification of EVM payments is not built yet: reported transactions wait as claims
    // (the order stays CONFIRMING) instead of being judged by a reader that does not exist.
    verifiesPayments: false,
    readTransaction: async (txId) => ({ txId, state: 'not_found' }),
    watchAddress: (recipient) => recipient,
    listTransactions: async (_address, cursor) => ({ txIds: [], cursor }),
  };
}
