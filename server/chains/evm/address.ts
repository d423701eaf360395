import { getAddress, isAddress, zeroAddress, type Address } from 'viem';

/** The EIP-55 form of an address, or null. Mixed case must carry a correct checksum; all lower or all upper case carries none. */
export function normalizeEvmAddress(value: string): Address | null {
  const unchecksummed = value.slice(2) === value.slice(2).toUpperCase();
  if (!isAddress(value, { strict: !unchecksummed })) return null;
  const address = getAddress(value);
  return address === zeroAddress ? null : address;
}

/** The address in the low 20 bytes of a 32-byte log topic, checksummed. */
export const topicAddress = (topic: string): Address => getAddress(`0x${topic.slice(-40)}`);
