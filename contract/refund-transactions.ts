import { z } from 'zod';
import { ZDecimalOut } from './common';
import { ZBase64Transaction, ZCallData, ZChainId, ZEvmAddress, ZTronUnsignedTransaction } from './pay';

/** The merchant's reason for a refund. */
/** The unsigned transactions a refund is sent with, per network family, and TRON's cost estimate. */

export const ZSolanaRefundTransaction = z
  .object({
    transaction: ZBase64Transaction.describe('Base64 transaction; the receiving wallet is the fee payer'),
  })
  .describe('Solana: sign with the receiving wallet (the blockhash is fresh for about a minute)');
export const ZEvmRefundTransaction = z
  .object({
    chainId: ZChainId,
    to: ZEvmAddress.describe('Token contract'),
    data: ZCallData.describe("ERC-20 transfer(refund address, amount) followed by the refund's tag"),
    value: z.literal('0'),
  })
  .describe('Polygon/Ethereum: send from the receiving wallet');

/** What sending a transaction costs on TRON, from the node's own figures. */
export const ZTronEstimatedCost = z
  .object({
    energy: z
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .describe('Energy the transfer uses (a dry run on the node)'),
    bandwidth: z
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .describe('Bandwidth points (bytes of the signed transaction)'),
    trx: ZDecimalOut.describe(
      'TRX burned when the wallet has neither staked energy nor free bandwidth: energy × energy price + bandwidth × byte price',
    ),
    trxBalance: ZDecimalOut.describe('TRX the sending wallet holds now'),
    covered: z
      .boolean()
      .describe(
        'Whether trxBalance covers trx; when false the wallet needs more TRX (or staked energy and bandwidth) or the network refuses the transaction',
      ),
  })
  .describe('The cost of sending it, for the wallet to hold that much TRX (or energy and bandwidth)');
export type TronEstimatedCost = z.infer<typeof ZTronEstimatedCost>;
export const ZTronRefundTransaction = z
  .object({
    transaction: ZTronUnsignedTransaction,
    estimatedCost: ZTronEstimatedCost,
  })
  .describe('TRON: sign with the receiving wallet (TronLink) and broadcast before raw_data.expiration');
