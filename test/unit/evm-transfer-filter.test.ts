import { pad } from 'viem';
import { describe, expect, it } from 'vitest';
import { RECIPIENTS_PER_CALL, transferFilter } from '../../server/chains/evm/scan-transfers';

const address = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;

describe('the eth_getLogs filter of an EVM scan target', () => {
  it('names the recipients (and senders) as topics while one call takes them all', () => {
    const filter = transferFilter({
      key: address(1),
      token: address(1),
      recipients: [address(2), address(3)],
      senders: [address(4)],
    });
    expect(filter.recipientTopics).toEqual([
      pad(address(2) as `0x${string}`),
      pad(address(3) as `0x${string}`),
    ]);
    expect(filter.senderTopics).toEqual([pad(address(4) as `0x${string}`)]);
  });

  it('names none beyond that, and keeps them all for filtering the answer', () => {
    const recipients = Array.from({ length: RECIPIENTS_PER_CALL + 1 }, (_, i) =>
      address(i + 10)
        .toUpperCase()
        .replace('0X', '0x'),
    );
    const filter = transferFilter({ key: address(1), token: address(1), recipients });
    expect(filter.recipientTopics).toBeNull();
    expect(filter.senderTopics).toBeNull();
    expect(filter.senders).toBeNull();
    expect(filter.recipients.size).toBe(RECIPIENTS_PER_CALL + 1);
    expect(filter.recipients.has(address(10))).toBe(true); // compared in lower case
  });
});
