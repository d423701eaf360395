import { encodeFunctionData, erc20Abi, toHex, type Address, type Hex } from 'viem';
import { decodeBase58, encodeBase58 } from '../../lib/base58';

/**
 * How an EVM transaction names its order: the order's reference (a 32-byte key, base58 on the
 * wire) appended as 32 raw bytes after the arguments of ERC-20 `transfer(recipient, amount)`.
 * Token contracts ignore trailing calldata, so the transfer works as usual.
 */
const TRANSFER_SELECTOR = '0xa9059cbb';
/** Selector (4 bytes) + two 32-byte arguments, in hex characters after 0x. */
const TRANSFER_ARGS_HEX = 8 + 64 * 2;
const TAG_HEX = 64;

export function taggedTransferData(recipient: Address, amountUnits: bigint, reference: string): Hex {
  const bytes = decodeBase58(reference);
  if (!bytes || bytes.length !== 32) throw new Error(`order reference is not a 32-byte key: "${reference}"`);
  const call = encodeFunctionData({
    abi: erc20Abi,
    functionName: 'transfer',
    args: [recipient, amountUnits],
  });
  return `${call}${toHex(bytes).slice(2)}`;
}

/** The order reference a transaction's calldata carries after a `transfer` call, if any. */
export function tagOf(input: string | undefined | null): string | null {
  if (!input || !input.toLowerCase().startsWith(TRANSFER_SELECTOR)) return null;
  const tag = input.slice(2 + TRANSFER_ARGS_HEX, 2 + TRANSFER_ARGS_HEX + TAG_HEX);
  if (tag.length !== TAG_HEX || !/^[0-9a-fA-F]+$/.test(tag)) return null;
  return encodeBase58(Buffer.from(tag, 'hex'));
}
