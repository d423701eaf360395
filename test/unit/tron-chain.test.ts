import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TronWeb, utils as tronUtils } from 'tronweb';
import { decodeFunctionData, erc20Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainAdapter, PaymentTarget } from '../../server/chains/chain-adapter';
import { ChainUnavailableError, PayerAccountError } from '../../server/chains/chain-errors';
import { tagOf } from '../../server/chains/evm/order-tag';
import { createChainRegistry } from '../../server/chains/registry';
import { createRpcEndpointPool } from '../../server/chains/rpc-endpoints';
import { hexToTron, normalizeTronAddress, tronToHex } from '../../server/chains/tron/address';
import { createTronAdapter } from '../../server/chains/tron/tron-adapter';
import { isThrottledBody } from '../../server/chains/tron/transport';
import { loadConfig } from '../../server/config';
import { encodeBase58 } from '../../server/lib/base58';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const USDT_HEX = '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c';
const payer = TronWeb.createRandom();
const merchant = TronWeb.createRandom();
const reference = encodeBase58(createHash('sha256').update('order').digest());

describe('TRON addresses', () => {
  it('take base58check only, with a valid checksum, and round-trip to the 20 bytes', () => {
    expect(normalizeTronAddress(USDT)).toBe(USDT);
    expect(tronToHex(USDT)).toBe(USDT_HEX);
    expect(hexToTron(USDT_HEX)).toBe(USDT);
    expect(hexToTron(`41${USDT_HEX.slice(2)}`)).toBe(USDT);
    expect(hexToTron(`0x${'0'.repeat(24)}${USDT_HEX.slice(2)}`)).toBe(USDT); // a log topic
    expect(normalizeTronAddress(payer.address)).toBe(payer.address);
  });

  it('refuse a bad checksum, hex forms, other base58 and the zero account', () => {
    const wrongLast = USDT.slice(0, -1) + (USDT.endsWith('t') ? 'u' : 't');
    expect(normalizeTronAddress(wrongLast)).toBeNull();
    expect(normalizeTronAddress(`41${USDT_HEX.slice(2)}`)).toBeNull();
    expect(normalizeTronAddress(USDT_HEX)).toBeNull();
    expect(normalizeTronAddress('Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB')).toBeNull();
    expect(normalizeTronAddress(hexToTron(`0x${'0'.repeat(40)}`))).toBeNull();
    expect(normalizeTronAddress('')).toBeNull();
  });
});

/** An adapter on endpoints nobody listens on: for what needs no chain. */
const offline = (): ChainAdapter =>
  createChainRegistry(loadConfig({ TRON_RPC_URL: 'http://127.0.0.1:1/jsonrpc' })).get('TRON');

const target = (over: Partial<PaymentTarget> = {}): PaymentTarget => ({
  reference,
  token: 'USDT',
  tokenMint: USDT,
  decimals: 6,
  recipient: merchant.address,
  amountUnits: 12_500_000n,
  ...over,
});

describe('TRON adapter without a chain', () => {
  it('shows the bare address as the QR code and a tron: URI as the link', () => {
    const chain = offline();
    expect(chain.paymentQrData(target())).toBe(merchant.address);
    expect(chain.paymentUri(target())).toBe(`tron:${merchant.address}?amount=12.5`);
    expect(chain.transactionRequestUri('http://x', reference)).toBeNull();
    expect(chain.tokenMint('USDT')).toBe(USDT);
    expect(chain.tokenMint('USDC')).toBeNull();
    expect(chain.presentation).toMatchObject({ kind: 'tron', chainId: 0x2b6653dc, name: 'TRON' });
  });

  it('takes 64-hex transaction ids with or without 0x, in one canonical form', () => {
    const chain = offline();
    const id = 'AB'.repeat(32);
    expect(chain.normalizeTxId(id)).toBe(id.toLowerCase());
    expect(chain.normalizeTxId(`0x${id}`)).toBe(id.toLowerCase());
    expect(chain.normalizeTxId(id.slice(2))).toBeNull();
    expect(chain.normalizeTxId(reference)).toBeNull();
  });

  it('verifies TIP-191 claims signed with signMessageV2, and nobody else', async () => {
    const chain = offline();
    const message = `stablepay claim ${reference} ${'ab'.repeat(32)}`;
    const signature = new TronWeb({ fullHost: 'http://127.0.0.1:1' }).trx.signMessageV2(
      message,
      payer.privateKey.replace(/^0x/, ''),
    );
    expect(chain.normalizeSignature(signature)).toBe(signature.toLowerCase());
    expect(await chain.verifyMessage(message, signature, payer.address)).toBe(true);
    expect(
      await chain.verifyMessage(message, signature.toUpperCase().replace('0X', '0x'), payer.address),
    ).toBe(true);
    expect(await chain.verifyMessage(`${message} `, signature, payer.address)).toBe(false);
    expect(await chain.verifyMessage(message, signature, merchant.address)).toBe(false);
    // An EIP-191 (Ethereum-prefixed) signature by the same key is not TRON's.
    const { privateKeyToAccount } = await import('viem/accounts');
    const evmSig = await privateKeyToAccount(payer.privateKey as `0x${string}`).signMessage({ message });
    expect(await chain.verifyMessage(message, evmSig, payer.address)).toBe(false);
    expect(await chain.verifyMessage(message, '0x' + '00'.repeat(65), payer.address)).toBe(false);
  });

  it('recognises TRON throttling in a 200 body', () => {
    expect(isThrottledBody('{"Error":"class org.tron.core.exception.X : lack of computing resources"}')).toBe(
      true,
    );
    expect(isThrottledBody('{"Error":"Contract validate error"}')).toBe(false);
    expect(isThrottledBody('{}')).toBe(false);
  });
});

/**
 * A TRON node's HTTP API and JSON-RPC on one port, as TRON's documentation shapes them, with a
 * throttle: the first `throttle` requests get 429 or 200 "lack of computing resources".
 */
function fakeNode() {
  const state = { throttle: 0, requests: 0, balance: 100_000_000n, trxSun: 10_000_000 as number | null };
  const block = {
    blockID: '00000000000f4241' + 'cd'.repeat(24),
    block_header: { raw_data: { number: 1_000_001, timestamp: 1_750_000_000_000 } },
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      state.requests++;
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (state.throttle > 0) {
        state.throttle--;
        return state.throttle % 2
          ? send(429, {})
          : send(200, {
              Error: 'class org.tron.core.exception.TooBigTransactionException : lack of computing resources',
            });
      }
      if (req.url === '/wallet/getnowblock') return send(200, block);
      if (req.url === '/wallet/getchainparameters')
        return send(200, {
          chainParameter: [
            { key: 'getEnergyFee', value: 100 },
            { key: 'getTransactionFee', value: 1000 },
          ],
        });
      if (req.url === '/wallet/triggerconstantcontract')
        return send(200, { result: { result: true }, energy_used: 64_285 });
      // An account that does not exist is {} (developers.tron.network/reference/account-getaccount).
      if (req.url === '/wallet/getaccount')
        return send(200, state.trxSun === null ? {} : { balance: state.trxSun });
      const call = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      if (call.method === 'eth_call')
        return send(200, {
          jsonrpc: '2.0',
          id: call.id,
          result: `0x${state.balance.toString(16).padStart(64, '0')}`,
        });
      send(200, { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'method not found' } });
    });
  });
  return { server, state };
}

describe('TRON adapter on a node that throttles', () => {
  const node = fakeNode();
  let chain: ChainAdapter;
  beforeAll(async () => {
    await new Promise<void>((r) => node.server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(node.server.address() as AddressInfo).port}`;
    const pool = (urls: string[]) =>
      createRpcEndpointPool({
        network: 'TRON',
        urls,
        timeoutMs: 2000,
        retryFailedAfterMs: 10,
        throttledBody: isThrottledBody,
      });
    chain = createTronAdapter({
      chainId: 0x2b6653dc,
      tokens: [{ token: 'USDT', contract: USDT, decimals: 6 }],
      rpc: pool([`${base}/jsonrpc`]),
      api: pool([base]),
      apiKey: 'k',
      rpcTimeoutMs: 2000,
      confirmations: 0,
      sleep: async () => {},
    });
  });
  afterAll(() => new Promise<void>((r) => node.server.close(() => r())));

  it('builds the unsigned tagged transfer offline from the head block, through throttling', async () => {
    node.state.throttle = 3;
    const built = await chain.buildPaymentTransaction(target(), payer.address);
    const tx = built.body.transaction as {
      txID: string;
      raw_data_hex: string;
      visible: boolean;
      raw_data: {
        contract: { parameter: { value: Record<string, string> } }[];
        ref_block_bytes: string;
        ref_block_hash: string;
        fee_limit: number;
      };
    };
    expect(tx.visible).toBe(false);
    expect(tx.txID).toBe(createHash('sha256').update(Buffer.from(tx.raw_data_hex, 'hex')).digest('hex'));
    const value = tx.raw_data.contract[0]!.parameter.value as {
      data: string;
      owner_address: string;
      contract_address: string;
    };
    expect(value.owner_address).toBe(`41${tronToHex(payer.address).slice(2)}`);
    expect(value.contract_address).toBe(`41${USDT_HEX.slice(2)}`);
    expect(tagOf(`0x${value.data}`)).toBe(reference);
    const call = decodeFunctionData({ abi: erc20Abi, data: `0x${value.data.slice(0, 8 + 128)}` });
    expect(call.args.map((a) => String(a).toLowerCase())).toEqual([tronToHex(merchant.address), '12500000']);
    expect(tx.raw_data.ref_block_bytes).toBe((1_000_001).toString(16).slice(-4));
    expect(tx.raw_data.ref_block_hash).toBe('cd'.repeat(8));
    expect(tx.raw_data.fee_limit).toBe(260_000 * 100);
    // What tronweb decodes from the bytes the wallet signs is the same transaction.
    const decoded = tronUtils.deserializeTx.deserializeTransaction('TriggerSmartContract', tx.raw_data_hex);
    expect(decoded.contract[0].parameter.value.data.toLowerCase()).toBe(value.data);
  });

  it('refuses a payer without the USDT due, a hex payer and no payer', async () => {
    node.state.balance = 1_000_000n;
    await expect(chain.buildPaymentTransaction(target(), payer.address)).rejects.toThrow(PayerAccountError);
    node.state.balance = 100_000_000n;
    await expect(
      chain.buildPaymentTransaction(target(), `41${tronToHex(payer.address).slice(2)}`),
    ).rejects.toThrow(PayerAccountError);
    await expect(chain.buildPaymentTransaction(target(), undefined)).rejects.toThrow(PayerAccountError);
  });

  const refundCost = async () => {
    const built = await chain.buildRefundTransaction({
      id: 'rf_1',
      tag: reference,
      token: 'USDT',
      tokenMint: USDT,
      decimals: 6,
      from: merchant.address,
      to: payer.address,
      amountUnits: 5_000_000n,
    });
    return built.body.estimatedCost;
  };

  it("prices a refund with the node dry run and chain parameters, beside the wallet's TRX", async () => {
    // raw_data 244 bytes with the tag, + signature, framing and result: 377.
    expect(await refundCost()).toEqual({
      energy: 64_285,
      bandwidth: 377,
      trx: '6.8055',
      trxBalance: '10',
      covered: true,
    });
  });

  it("says when the wallet's TRX does not cover the cost, an account that does not exist holding none", async () => {
    node.state.trxSun = 6_805_499;
    expect(await refundCost()).toMatchObject({ trx: '6.8055', trxBalance: '6.805499', covered: false });
    node.state.trxSun = null;
    expect(await refundCost()).toMatchObject({ trxBalance: '0', covered: false });
    node.state.trxSun = 6_805_500;
    expect(await refundCost()).toMatchObject({ covered: true });
  });

  it('gives up after a bounded number of throttled tries, as unavailable', async () => {
    node.state.throttle = 1000;
    const before = node.state.requests;
    await expect(chain.buildPaymentTransaction(target(), payer.address)).rejects.toThrow(
      ChainUnavailableError,
    );
    expect(node.state.requests - before).toBe(5);
    node.state.throttle = 0;
  });
});
