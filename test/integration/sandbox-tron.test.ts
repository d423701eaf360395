import { TronWeb } from 'tronweb';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../server/lib/base58';
import { startSandboxTron, type SandboxTron } from '../../sandbox/start-tron';
import { tronPost } from '../support/local-tron';

/** The sandbox's TRON chain by itself: what deps.sandbox calls (the routes: sandbox-tron-routes.test.ts). */

let sandbox: SandboxTron;
const merchantKey = generatePrivateKey();

beforeAll(async () => {
  sandbox = await startSandboxTron(merchantKey);
});
afterAll(() => sandbox?.stop());

describe('sandbox TRON chain', () => {
  it("holds the merchant's TRON wallet of the sandbox's EVM key, funded with TRX, and gives the service its URLs", async () => {
    const { info, env, tron } = sandbox;
    expect(info.wallet.address).toBe(TronWeb.address.fromPrivateKey(merchantKey.slice(2)));
    expect(tron.trxBalance(info.wallet.address)).toBe(1_000_000_000n);
    expect(env).toEqual({
      TRON_RPC_URL: `${tron.url}/jsonrpc`,
      TRON_API_URL: tron.url,
      USDT_CONTRACT_TRON: tron.usdt,
    });
  });

  it('pays with the order tag after the transfer arguments, and sends a refund the service built', async () => {
    const { tron, info } = sandbox;
    const customer = await tron.newWallet({ trx: 0n });
    const reference = encodeBase58(new Uint8Array(32).fill(7));
    const txId = await sandbox.pay({
      token: tron.usdt,
      to: info.wallet.address,
      units: 4_000_000n,
      tag: reference,
    });
    const tx = (
      await tronPost<{ raw_data: { contract: { parameter: { value: { data: string } } }[] } }>(
        tron,
        '/wallet/gettransactionbyid',
        { value: txId },
      )
    ).body;
    expect(tx.raw_data.contract[0]!.parameter.value.data.endsWith('07'.repeat(32))).toBe(true);
    expect(await tron.tokenBalance(info.wallet.address)).toBe(4_000_000n);

    // A refund's `transaction` as the service gives it: unsigned, for the merchant's wallet, with its cost.
    const { body } = await tronPost<{ transaction: unknown }>(tron, '/wallet/triggersmartcontract', {
      owner_address: info.wallet.address,
      contract_address: tron.usdt,
      function_selector: 'transfer(address,uint256)',
      parameter: `${'0'.repeat(24)}${customer.hex.slice(2)}${(1_000_000).toString(16).padStart(64, '0')}`,
      fee_limit: 100_000_000,
      visible: true,
    });
    const built = { transaction: body.transaction, estimatedCost: { energy: 0, bandwidth: 0 } };
    expect(await sandbox.sendRefund(customer.address, built)).toBeNull(); // not the sandbox's wallet
    const refund = await sandbox.sendRefund(info.wallet.address, built);
    expect(await tron.txInfo(refund!)).toMatchObject({ receipt: { result: 'SUCCESS' } });
    expect(await tron.tokenBalance(customer.address)).toBe(1_000_000n);

    const height = await tron.blockNumber();
    expect((await sandbox.advance(5, 0)).blockNumber).toBeGreaterThanOrEqual(Number(height) + 5);
  });
});
