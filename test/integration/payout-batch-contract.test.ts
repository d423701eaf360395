import {
  decodeEventLog,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  parseUnits,
  toHex,
  type Address,
  type Hex,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startLocalEvm,
  randomEvmAddress,
  type LocalEvm,
  type LocalWallet,
} from '../../sandbox/chains/evm/local-evm';
import { PAYOUT_BATCH_ABI, PAYOUT_BATCH_BYTECODE } from '../../server/chains/evm/payout-batch/payout-batch';

/**
 * The payout batch contract the product ships (server/chains/evm/payout-batch), on a local Hardhat
 * chain with a token of 18 decimals as BSC's USDT: deployed by a merchant's wallet from the
 * committed bytecode, paying 50 items in one transaction from that wallet's own tokens, and of no
 * use to anyone else.
 */

let evm: LocalEvm;
let token: Address;
let merchant: LocalWallet;
let batch: Address;

const ITEMS = 50;
// 18 decimals exact: 1.000000000000000001, 2.000000000000000002, ...
const amounts = Array.from({ length: ITEMS }, (_, i) =>
  parseUnits(`${i + 1}.${'0'.repeat(17)}${(i % 9) + 1}`, 18),
);
const total = amounts.reduce((a, b) => a + b, 0n);
const recipients = Array.from({ length: ITEMS }, () => randomEvmAddress());
const tags = Array.from({ length: ITEMS }, (_, i) => toHex(i + 1, { size: 32 }));

const approve = (spender: Address, units: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, units] });
const pay = (to: Address[], units: bigint[], itemTags: Hex[]) =>
  encodeFunctionData({ abi: PAYOUT_BATCH_ABI, functionName: 'pay', args: [token, to, units, itemTags] });

async function receiptOf(hash: Hex) {
  return evm.publicClient.waitForTransactionReceipt({ hash });
}

beforeAll(async () => {
  evm = await startLocalEvm({ chainId: 56 });
  token = getAddress(await evm.deployToken({ decimals: 18 }));
  // A little more than the batch: what is left stays the merchant's.
  merchant = await evm.newWallet({ token, units: total + 5n });
  const deployed = await evm.walletClient.deployContract({
    account: merchant,
    chain: evm.chain,
    abi: PAYOUT_BATCH_ABI,
    bytecode: PAYOUT_BATCH_BYTECODE,
  });
  const receipt = await receiptOf(deployed);
  expect(receipt.status).toBe('success');
  batch = receipt.contractAddress!;
}, 60_000);

afterAll(async () => {
  await evm?.stop();
});

describe('PayoutBatch on a local chain', () => {
  it('pays 50 items of an 18-decimal token in one transaction after one approval, each to the unit and named by its tag', async () => {
    // Approve more than the batch: the rest of the allowance is tested below against a stranger.
    await evm.sendTransaction({ from: merchant, to: token, data: approve(batch, total + 5n) });
    const hash = await evm.sendTransaction({
      from: merchant,
      to: batch,
      data: pay(recipients, amounts, tags),
      gas: 5_000_000n,
    });
    const receipt = await receiptOf(hash);
    expect(receipt.status).toBe('success');

    for (const [i, to] of recipients.entries()) expect(await evm.balanceOf(token, to)).toBe(amounts[i]);
    expect(await evm.balanceOf(token, merchant.address)).toBe(5n);
    expect(await evm.balanceOf(token, batch)).toBe(0n);

    // Each item: a Transfer from the merchant's own wallet (what the verifier reads) and a Paid with its tag.
    const transfers = receipt.logs
      .filter((log) => log.address.toLowerCase() === token.toLowerCase())
      .map((log) => decodeEventLog({ abi: erc20Abi, ...log }))
      .filter((e) => e.eventName === 'Transfer');
    expect(transfers).toHaveLength(ITEMS);
    for (const [i, t] of transfers.entries())
      expect(t.args).toEqual({ from: merchant.address, to: recipients[i], value: amounts[i] });
    const paid = receipt.logs
      .filter((log) => log.address.toLowerCase() === batch.toLowerCase())
      .map((log) => decodeEventLog({ abi: PAYOUT_BATCH_ABI, ...log }));
    expect(paid.map((e) => e.args)).toEqual(
      recipients.map((to, i) => ({ tag: tags[i], token, to, amount: amounts[i] })),
    );
  }, 60_000);

  it("moves nothing of the merchant's for a stranger, though the merchant's allowance to it is still open", async () => {
    expect(
      await evm.publicClient.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [merchant.address, batch],
      }),
    ).toBe(5n);
    const thief = await evm.newWallet();
    const hash = await evm.sendTransaction({
      from: thief,
      to: batch,
      data: pay([thief.address], [5n], [tags[0]!]),
      gas: 300_000n,
    });
    expect((await receiptOf(hash)).status).toBe('reverted');
    expect(await evm.balanceOf(token, merchant.address)).toBe(5n);
    expect(await evm.balanceOf(token, thief.address)).toBe(0n);
  }, 60_000);

  it('refuses lists of different lengths, and a batch beyond the allowance, whole: nothing is paid', async () => {
    const before = await evm.balanceOf(token, merchant.address);
    const mismatched = await evm.sendTransaction({
      from: merchant,
      to: batch,
      data: pay([randomEvmAddress(), randomEvmAddress()], [1n], tags.slice(0, 2)),
      gas: 300_000n,
    });
    expect((await receiptOf(mismatched)).status).toBe('reverted');
    // 5 units of allowance left: an item of 3 then one of 3 fails on the second, and the first is undone too.
    const first = randomEvmAddress();
    const beyond = await evm.sendTransaction({
      from: merchant,
      to: batch,
      data: pay([first, randomEvmAddress()], [3n, 3n], tags.slice(0, 2)),
      gas: 300_000n,
    });
    expect((await receiptOf(beyond)).status).toBe('reverted');
    expect(await evm.balanceOf(token, first)).toBe(0n);
    expect(await evm.balanceOf(token, merchant.address)).toBe(before);
  }, 60_000);
});
