import {
  decodeFunctionData,
  erc20Abi,
  getAddress,
  toHex,
  type Address,
  type EIP1193Provider,
  type Hex,
} from 'viem';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { decodeBase58 } from '../../server/lib/base58';
import {
  createPayer,
  EvmChainNotAddedError,
  EvmPaymentError,
  EvmRequestRejectedError,
  parsePayUrl,
  PayUrlError,
  payWithEvmWallet,
  requestEvmTransaction,
  StablepayError,
  ValidationError,
  type Eip1193Provider,
  type FetchLike,
  type PayUrl,
} from '../../sdk/src/payer';
import { type LocalWallet, randomEvmAddress } from '../../sandbox/chains/evm/local-evm';
import { startEvmNetworks } from '../../sandbox/chains/evm/evm-networks';
import {
  startPaymentHarness,
  type HarnessShop,
  type PaymentHarness,
  usePaymentStack,
} from '../support/payment-harness';
import { ProviderRpcError, testEvmWallet, type TestEvmWallet } from '../support/test-evm-wallet';
import { until } from './support';

/**
 * payWithEvmWallet against two real local EVM chains (Hardhat nodes with chain ids 137 and 1, a
 * 6-decimal USDT on each) and the real service, through a test EIP-1193 provider: a wallet holding a
 * local private key that signs with viem and sends to the node of its current chain.
 */

const CHAINS = [
  { network: 'POLYGON', chainId: 137, confirmations: 3 },
  { network: 'ETHEREUM', chainId: 1, confirmations: 2 },
] as const;
type NetworkName = (typeof CHAINS)[number]['network'];

let networks: Awaited<ReturnType<typeof startEvmNetworks<NetworkName>>>;
let chains: typeof networks.chains;
let h: PaymentHarness;

usePaymentStack(
  async () => {
    const started = performance.now();
    networks = await startEvmNetworks(CHAINS);
    chains = networks.chains;
    h = await startPaymentHarness(networks.env);
    console.log(
      `[sdk payer-evm] two chains and the service up in ${(performance.now() - started).toFixed(0)} ms`,
    );
  },
  () => [h, networks],
);

type TestWallet = Omit<TestEvmWallet, 'request' | 'signedMessages'> & { provider: Eip1193Provider };

/** A browser wallet for tests (test/support/test-evm-wallet.ts) on the chains named, as the SDK sees it. */
function testWallet(account: LocalWallet, opts: { chainId: number; knows?: NetworkName[] }): TestWallet {
  const wallet = testEvmWallet(account, {
    chainId: opts.chainId,
    chains: (opts.knows ?? ['POLYGON', 'ETHEREUM']).map((n) => {
      const { chainId, chain, nodeUrl } = chains[n].evm;
      return { chainId, node: { chain, url: nodeUrl } };
    }),
  });
  return Object.assign(wallet, { provider: { request: wallet.request } as Eip1193Provider });
}

const freshAddress = randomEvmAddress;
const tagOf = (reference: string) => toHex(decodeBase58(reference)!);
const rejected = () =>
  new ProviderRpcError(4001, 'MetaMask Tx Signature: User denied transaction signature.');

/** A fetch that records the paths the SDK asked for. */
function recordingFetch() {
  const paths: string[] = [];
  const fetchImpl: FetchLike = (input, init) => {
    paths.push(`${init.method} ${new URL(input).pathname}`);
    return fetch(input, init);
  };
  return { paths, fetch: fetchImpl };
}

/** The SDK paying `reference` from `provider` on the test server, with its defaults. */
const payFrom = (reference: string, provider: Eip1193Provider) =>
  payWithEvmWallet({ baseUrl: h.server.url, reference, provider });
/** What payFrom() throws (its result, should it not). */
const errorOfPaying = (reference: string, provider: Eip1193Provider) =>
  payFrom(reference, provider).catch((e: unknown) => e);

async function shopWithOrder(network: NetworkName, amount: string) {
  const shop: HarnessShop = await h.newShop(network, freshAddress());
  const order = await h.createOrder(shop, { amount });
  return { shop, order };
}

describe('payWithEvmWallet', () => {
  it('pays a POLYGON order end to end from a wallet on chain 1: switched to 137, sent, reported, PAID by its tag', async () => {
    const { evm, usdt } = chains.POLYGON;
    const { shop, order } = await shopWithOrder('POLYGON', '12.5');
    const account = await evm.newWallet({ token: usdt, units: 100_000_000n });
    const wallet = testWallet(account, { chainId: 1 });
    const started = performance.now();

    const payment = payWithEvmWallet({
      baseUrl: h.server.url,
      reference: order.reference,
      provider: wallet.provider,
      pollIntervalMs: 100,
      timeoutMs: 15_000,
    });
    // Reported (CONFIRMING): now make it final and let the service verify it, while the SDK polls.
    await until('submit-tx', async () => (await h.getOrder(shop, order.reference)).status === 'CONFIRMING');
    await evm.mine(CHAINS[0].confirmations);
    await h.settle(shop, order.reference, 'PAID');
    const result = await payment;
    const elapsedMs = performance.now() - started;

    expect(result.timedOut).toBe(false);
    expect(result.info).toMatchObject({ status: 'PAID', txId: result.txId, amountReceived: order.amount });
    expect(wallet.sent).toEqual([result.txId]);
    expect(wallet.chainId).toBe(137);
    expect(wallet.calls.map((c) => c.method)).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
      'wallet_switchEthereumChain',
      'eth_chainId',
      'eth_sendTransaction',
    ]);
    expect(wallet.calls[2]!.params).toEqual([{ chainId: '0x89' }]);
    const [sentTx] = wallet.calls[4]!.params as [{ from: string; to: string; data: Hex; value: string }];
    expect(sentTx).toEqual({
      from: account.address.toLowerCase(),
      to: usdt,
      data: sentTx.data,
      value: '0x0',
    });
    expect(decodeFunctionData({ abi: erc20Abi, data: sentTx.data }).args).toEqual([
      getAddress(shop.wallet),
      12_500_000n,
    ]);
    expect(sentTx.data.slice(-64)).toBe(tagOf(order.reference).slice(2));

    // On chain: the transfer landed on Polygon; nothing was sent on chain 1.
    const receipt = await evm.publicClient.getTransactionReceipt({ hash: result.txId as Hex });
    expect(receipt.status).toBe('success');
    expect(await evm.balanceOf(usdt, shop.wallet as Address)).toBe(12_500_000n);
    expect(await evm.balanceOf(usdt, account.address)).toBe(100_000_000n - 12_500_000n);
    expect(await chains.ETHEREUM.evm.publicClient.getTransactionCount({ address: account.address })).toBe(0);

    const audit = await h.auditOf(shop, order.reference);
    expect(audit.find((e) => e.type === 'tx_request.issued')).toMatchObject({
      actor: 'payer',
      data: { account: expect.stringMatching(new RegExp(`^${account.address}$`, 'i')) },
    });
    expect(audit.find((e) => e.type === 'tx.submitted')).toMatchObject({
      actor: 'payer',
      data: { txId: result.txId },
    });
    expect(audit.find((e) => e.type === 'payment.verified')).toMatchObject({
      actor: 'system',
      data: { txId: result.txId, matchedBy: 'tag', source: 'payer', from: account.address },
    });
    expect(h.statusChanges(audit)).toEqual(['PENDING->CONFIRMING', 'CONFIRMING->PAID']);
    expect(h.webhookTypes(shop, order.reference)).toEqual([
      'order.created',
      'order.confirming',
      'order.paid',
    ]);
    console.log(`[sdk payer-evm] payWithEvmWallet to PAID: ${elapsedMs.toFixed(0)} ms`);
  });

  it('an ETHEREUM order from a wallet on 137 is switched to chain 1; a wallet already there is not asked; timeoutMs 0 returns CONFIRMING', async () => {
    const { evm, usdt } = chains.ETHEREUM;
    const account = await evm.newWallet({ token: usdt, units: 50_000_000n });
    const first = await shopWithOrder('ETHEREUM', '3');
    const wallet = testWallet(account, { chainId: 137 });
    const payer = createPayer({ baseUrl: h.server.url });
    const result = await payer.payWithEvmWallet({
      reference: first.order.reference,
      provider: wallet.provider,
      timeoutMs: 0,
    });
    expect(result).toMatchObject({ timedOut: true, info: { status: 'CONFIRMING', txId: null } });
    expect(wallet.calls.find((c) => c.method === 'wallet_switchEthereumChain')?.params).toEqual([
      { chainId: '0x1' },
    ]);
    expect(wallet.chainId).toBe(1);
    expect((await evm.publicClient.getTransactionReceipt({ hash: result.txId as Hex })).status).toBe(
      'success',
    );

    // Same wallet, now on chain 1: no switch.
    const second = await shopWithOrder('ETHEREUM', '4');
    const again = await payer.payWithEvmWallet({
      reference: second.order.reference,
      provider: wallet.provider,
      timeoutMs: 0,
    });
    expect(wallet.calls.slice(-3).map((c) => c.method)).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
      'eth_sendTransaction',
    ]);
    await evm.mine(CHAINS[1].confirmations);
    for (const [{ shop, order }, txId] of [
      [first, result.txId],
      [second, again.txId],
    ] as const)
      expect(await h.settle(shop, order.reference, 'PAID')).toMatchObject({ txId });
  });

  it('a user rejection in eth_sendTransaction is an EvmRequestRejectedError: nothing sent, no submit-tx', async () => {
    const { evm, usdt } = chains.POLYGON;
    const { shop, order } = await shopWithOrder('POLYGON', '1');
    const account = await evm.newWallet({ token: usdt, units: 10_000_000n });
    const wallet = testWallet(account, { chainId: 137 });
    const recorded = recordingFetch();
    wallet.failNext('eth_sendTransaction', rejected());

    const error = await payWithEvmWallet({
      baseUrl: h.server.url,
      fetch: recorded.fetch,
      reference: order.reference,
      provider: wallet.provider,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EvmRequestRejectedError);
    expect(error).toBeInstanceOf(EvmPaymentError);
    expect(error).toBeInstanceOf(StablepayError);
    expect(error).toMatchObject({
      name: 'EvmRequestRejectedError',
      code: 'EVM_REQUEST_REJECTED',
      method: 'eth_sendTransaction',
      providerCode: 4001,
      txId: undefined,
    });
    expect((error as Error).message).toBe(
      'The payment transaction was not sent: the request was rejected in the wallet',
    );
    expect((error as Error).cause).toBeInstanceOf(ProviderRpcError);
    expect(recorded.paths).toEqual([`GET /pay/tx-request/${order.reference}`]);
    expect(wallet.sent).toEqual([]);
    expect(await evm.publicClient.getTransactionCount({ address: account.address })).toBe(0);
    expect((await h.getOrder(shop, order.reference)).status).toBe('PENDING');
    expect((await h.auditOf(shop, order.reference)).map((e) => e.type)).not.toContain('tx.submitted');

    // Refusing to connect, or to switch chain, is the same error naming the request.
    wallet.failNext('eth_requestAccounts', rejected());
    await expect(payFrom(order.reference, wallet.provider)).rejects.toMatchObject({
      code: 'EVM_REQUEST_REJECTED',
      method: 'eth_requestAccounts',
    });
    const onOtherChain = testWallet(account, { chainId: 1 });
    onOtherChain.failNext('wallet_switchEthereumChain', rejected());
    const refusedSwitch = await errorOfPaying(order.reference, onOtherChain.provider);
    expect(refusedSwitch).toBeInstanceOf(EvmRequestRejectedError);
    expect(refusedSwitch).toMatchObject({ method: 'wallet_switchEthereumChain' });
    expect((refusedSwitch as Error).message).toMatch(/could not switch to Polygon \(chain id 137\)/);
    expect(onOtherChain.calls.map((c) => c.method)).not.toContain('eth_sendTransaction');
    expect(await evm.publicClient.getTransactionCount({ address: account.address })).toBe(0);
  });

  it('a wallet that does not know the chain (4902) gives an EvmChainNotAddedError, also when wrapped', async () => {
    const { evm, usdt } = chains.POLYGON;
    const { shop, order } = await shopWithOrder('POLYGON', '1');
    const account = await evm.newWallet({ token: usdt, units: 10_000_000n });
    const wallet = testWallet(account, { chainId: 1, knows: ['ETHEREUM'] });

    const error = await errorOfPaying(order.reference, wallet.provider);
    expect(error).toBeInstanceOf(EvmChainNotAddedError);
    expect(error).toBeInstanceOf(EvmPaymentError);
    expect(error).toMatchObject({ code: 'EVM_CHAIN_NOT_ADDED', chainId: 137, providerCode: 4902 });
    expect((error as Error).message).toBe(
      'The wallet does not know Polygon (chain id 137): add that network to the wallet, then pay again',
    );
    expect(wallet.chainId).toBe(1);
    expect(wallet.calls.map((c) => c.method)).not.toContain('eth_sendTransaction');

    // MetaMask Mobile reports it as an internal error wrapping the 4902.
    wallet.failNext(
      'wallet_switchEthereumChain',
      new ProviderRpcError(-32603, 'Unrecognized chain ID "0x89"', { originalError: { code: 4902 } }),
    );
    await expect(payFrom(order.reference, wallet.provider)).rejects.toBeInstanceOf(EvmChainNotAddedError);
    // Any other failure to switch is a plain EvmPaymentError with the wallet's code and message.
    wallet.failNext('wallet_switchEthereumChain', new ProviderRpcError(-32002, 'Request already pending'));
    const pending = await errorOfPaying(order.reference, wallet.provider);
    expect(pending).toMatchObject({ code: 'EVM_PAYMENT_FAILED', providerCode: -32002 });
    expect((pending as Error).message).toContain('Request already pending');
    expect((await h.getOrder(shop, order.reference)).status).toBe('PENDING');
  });

  it('a payer short of tokens gets the 400 (query.account) before the wallet is asked to switch or send', async () => {
    const { evm, usdt } = chains.POLYGON;
    const { order } = await shopWithOrder('POLYGON', '5');
    const account = await evm.newWallet({ token: usdt, units: 1_000_000n });
    const wallet = testWallet(account, { chainId: 1 });
    const error = await errorOfPaying(order.reference, wallet.provider);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details[0]).toMatchObject({ path: 'query.account' });
    expect((error as ValidationError).details[0]?.message).toContain('less than the 5 USDT due');
    expect(wallet.calls.map((c) => c.method)).toEqual(['eth_requestAccounts']);
  });

  it('after sending, a failed report carries the txId; bad providers and accounts are refused early', async () => {
    const { evm, usdt } = chains.POLYGON;
    const { shop, order } = await shopWithOrder('POLYGON', '2');
    const account = await evm.newWallet({ token: usdt, units: 10_000_000n });
    const wallet = testWallet(account, { chainId: 137 });
    const noSubmit: FetchLike = async (input, init) => {
      if (input.endsWith('/submit-tx')) throw new TypeError('fetch failed');
      return fetch(input, init);
    };
    const error = await payWithEvmWallet({
      baseUrl: h.server.url,
      fetch: noSubmit,
      maxRetries: 0,
      reference: order.reference,
      provider: wallet.provider,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EvmPaymentError);
    expect(error).not.toBeInstanceOf(EvmRequestRejectedError);
    const txId = (error as EvmPaymentError).txId!;
    expect(wallet.sent).toEqual([txId]);
    expect((error as Error).message).toContain(`The transaction ${txId} was sent`);
    // The service finds the tagged transfer by itself once it is final.
    await evm.mine(CHAINS[0].confirmations);
    expect(await h.settle(shop, order.reference, 'PAID')).toMatchObject({ txId });

    // A Solana order has no EVM transaction; a bad account or provider never reaches the service.
    const solanaLike = await requestEvmTransaction({
      baseUrl: h.server.url,
      reference: order.reference,
      account: 'not-an-address',
    }).catch((e: unknown) => e);
    expect(solanaLike).toBeInstanceOf(TypeError);
    await expect(
      payWithEvmWallet({
        baseUrl: h.server.url,
        reference: order.reference,
        provider: {} as Eip1193Provider,
      }),
    ).rejects.toThrow(/EIP-1193 provider/);
    // A wallet that says it switched but did not: nothing is sent on the wrong chain. (Its provider
    // has no eth_requestAccounts either: its eth_accounts is used.)
    const stubborn = testWallet(account, { chainId: 1 });
    const answer = stubborn.provider.request.bind(stubborn.provider);
    stubborn.provider.request = async (args) => {
      if (args.method !== 'wallet_switchEthereumChain') return answer(args);
      stubborn.calls.push({ method: args.method, params: args.params });
      return null;
    };
    stubborn.failNext('eth_requestAccounts', new ProviderRpcError(4200, 'Unsupported method'));
    const unpaid = await shopWithOrder('POLYGON', '1');
    const stillOnOne = await errorOfPaying(unpaid.order.reference, stubborn.provider);
    expect(stillOnOne).toMatchObject({ code: 'EVM_PAYMENT_FAILED', txId: undefined });
    expect((stillOnOne as Error).message).toBe(
      'The wallet could not switch to Polygon (chain id 137): it is still on Ethereum (chain id 1)',
    );
    expect(stubborn.calls.map((c) => c.method)).toEqual([
      'eth_requestAccounts',
      'eth_accounts',
      'eth_chainId',
      'wallet_switchEthereumChain',
      'eth_chainId',
    ]);

    const empty = testWallet(account, { chainId: 137 });
    empty.provider.request = async () => [];
    await expect(payFrom(order.reference, empty.provider)).rejects.toThrow(/no account to pay from/);
  });

  it("accepts viem's EIP1193Provider type", () => {
    expectTypeOf<EIP1193Provider>().toMatchTypeOf<Eip1193Provider>();
  });
});

describe('requestEvmTransaction', () => {
  it('returns the tagged ERC-20 transfer for the account', async () => {
    const { evm, usdt } = chains.ETHEREUM;
    const { shop, order } = await shopWithOrder('ETHEREUM', '7.25');
    const account = await evm.newWallet({ token: usdt, units: 10_000_000n });
    const tx = await requestEvmTransaction({
      baseUrl: h.server.url,
      reference: order.reference,
      account: account.address,
    });
    expect(tx).toMatchObject({
      network: 'ETHEREUM',
      chainId: 1,
      to: usdt,
      value: '0',
      reference: order.reference,
      amount: order.amount,
    });
    expect(decodeFunctionData({ abi: erc20Abi, data: tx.data as Hex }).args).toEqual([
      getAddress(shop.wallet),
      7_250_000n,
    ]);
    expect(tx.data.slice(-64)).toBe(tagOf(order.reference).slice(2));
  });
});

describe('parsePayUrl: EIP-681', () => {
  it.each(CHAINS)(
    'parses the payUrl of a real $network order (chain $chainId)',
    async ({ network, chainId }) => {
      const { shop, order } = await shopWithOrder(network, '19.04762');
      expect(order.payUrl).toBe(
        `ethereum:${chains[network].usdt}@${chainId}/transfer?address=${shop.wallet}&uint256=19047620`,
      );
      expect(order.decimals).toBe(6);
      const parsed = parsePayUrl(order.payUrl, { evmDecimals: order.decimals });
      expect(parsed).toEqual({
        kind: 'evm-transfer',
        network,
        chainId,
        contract: chains[network].usdt,
        recipient: shop.wallet,
        amountUnits: '19047620',
        amount: '19.04762',
      } satisfies PayUrl);
      expect(parsePayUrl(order.qrData as string)).toEqual(parsed);
    },
  );

  it('reads the other spellings and refuses malformed ones', () => {
    const c = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
    const to = '0x1111111111111111111111111111111111111111';
    expect(parsePayUrl(`ETHEREUM:${c}@1/transfer?uint256=1E6&address=${to}&gas=100000`)).toMatchObject({
      network: 'ETHEREUM',
      chainId: 1,
      recipient: to,
      amountUnits: '1000000',
      amount: '1',
    });
    expect(parsePayUrl(`ethereum:${c}@80002/transfer?address=${to}&uint256=0`)).toMatchObject({
      network: 'POLYGON',
      amount: '0',
    });
    // An 18-decimal token (BSC's USDT) one base unit over 12.5: given the order's decimals, exact.
    expect(
      parsePayUrl(`ethereum:${c}@56/transfer?address=${to}&uint256=12500000000000000001`, {
        evmDecimals: 18,
      }),
    ).toMatchObject({ network: 'BSC', amountUnits: '12500000000000000001', amount: '12.500000000000000001' });
    const max = ((1n << 256n) - 1n).toString();
    expect(parsePayUrl(`ethereum:${c}@137/transfer?address=${to}&uint256=${max}`)).toMatchObject({
      amountUnits: max,
    });
    const bad = [
      `ethereum:${c}@0/transfer?address=${to}&uint256=1`,
      `ethereum:${c}@0x89/transfer?address=${to}&uint256=1`,
      `ethereum:${c}@137/transfer?address=${to}&uint256=${(1n << 256n).toString()}`,
      `ethereum:${c}@137/transfer?address=${to}&uint256=1e80`,
      `ethereum:${c}@137/transfer?address=${to}&uint256=-1`,
      `ethereum:${c}@137/transfer?address=${to}&uint256=`,
      `ethereum:${c}@137/transfer?address=${to}&uint256=1&uint256=2`,
      `ethereum:${c}@137/transfer?address=${to}&address=${to}&uint256=1`,
      `ethereum:${c}@137/transfer?address=vitalik.eth&uint256=1`,
      `ethereum:${c}@137/transfer?uint256=1`,
      `ethereum:${c}@1/transfer?address=${to}&uint256=0x10`,
      `ethereum:${c.slice(0, -1)}@1/transfer?address=${to}&uint256=1`,
      `ethereum:${c}@1/transferFrom?address=${to}&uint256=1`,
      `ethereum:${to}@1?value=1e18`,
      'ethereum:',
    ];
    for (const url of bad) {
      expect(() => parsePayUrl(url), url).toThrow(PayUrlError);
      expect(() => parsePayUrl(url), url).toThrow(/^Not a valid payment URI/);
    }
  });
});
