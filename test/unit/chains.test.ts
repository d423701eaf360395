import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  decodeTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import {
  ComputeBudgetInstruction,
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  Transaction,
} from '@solana/web3.js';
import { decodeFunctionData, erc20Abi, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import type { PaymentTarget } from '../../server/chains/chain-adapter';
import { createEvmAdapter } from '../../server/chains/evm/evm-adapter';
import { createChainRegistry } from '../../server/chains/registry';
import { decodeBase58, encodeBase58 } from '../../server/lib/base58';
import { MEMO_PROGRAM_ID } from '../../server/chains/solana/payment-transaction';
import { medianNonZeroFee } from '../../server/chains/solana/rpc';
import { createSolanaAdapter } from '../../server/chains/solana/solana-adapter';
import { tokenAccountInfoResult } from '../support/token-account-info';
import { ApiError } from '../../server/errors';
import { blamingAccountField, toApiError } from '../../server/http/error-handler';
import { createRpcEndpointPool } from '../../server/chains/rpc-endpoints';
import { tagOf } from '../../server/chains/evm/order-tag';
import { evmPresentation } from '../../server/chains/evm/presentation';

const USDT_MINT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const POLYGON_USDT = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';
const ETHEREUM_USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const EVM_RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7'; // EIP-55 test vector
const BLOCKHASH = Keypair.generate().publicKey.toBase58();

const merchant = Keypair.generate().publicKey;
const payer = Keypair.generate().publicKey;
const reference = Keypair.generate().publicKey;

const pool = (network: string, url: string, timeoutMs = 2000) =>
  createRpcEndpointPool({ network, urls: [url], timeoutMs, retryFailedAfterMs: 30_000 });

function solana(rpcUrl = 'http://127.0.0.1:1', rpcTimeoutMs = 2000, usdcMint?: string) {
  return createSolanaAdapter({
    rpc: pool('SOLANA', rpcUrl, rpcTimeoutMs),
    commitment: 'confirmed',
    tokens: [
      { token: 'USDT', contract: USDT_MINT, decimals: 6 },
      ...(usdcMint ? [{ token: 'USDC' as const, contract: usdcMint, decimals: 6 }] : []),
    ],
  });
}
const evmOptions = {
  rpcTimeoutMs: 2000,
  confirmations: 2,
  logRange: 1000,
  presentation: evmPresentation({
    network: 'POLYGON',
    name: 'Test EVM',
    chainId: 137,
    mainnetChainId: 137,
    explorerTxUrl: null,
  }),
};
const polygon = createEvmAdapter({
  network: 'POLYGON',
  chainId: 137,
  tokens: [{ token: 'USDT', contract: POLYGON_USDT, decimals: 6 }],
  rpc: pool('POLYGON', 'http://127.0.0.1:1'),
  ...evmOptions,
});
const ethereum = createEvmAdapter({
  network: 'ETHEREUM',
  chainId: 1,
  tokens: [{ token: 'USDT', contract: ETHEREUM_USDT.toLowerCase(), decimals: 6 }],
  rpc: pool('ETHEREUM', 'http://127.0.0.1:1'),
  ...evmOptions,
});

/** A 6-decimal USDT payment target on the chain of `tokenMint` and `recipient`. */
const usdtTarget =
  (tokenMint: string, recipient: string, amountUnits: bigint) =>
  (overrides: Partial<PaymentTarget> = {}): PaymentTarget => ({
    reference: reference.toBase58(),
    token: 'USDT',
    tokenMint,
    decimals: 6,
    recipient,
    amountUnits,
    ...overrides,
  });
const solanaTarget = usdtTarget(USDT_MINT, merchant.toBase58(), 10_500_000n);
const evmTarget = usdtTarget(POLYGON_USDT, EVM_RECIPIENT, 25_000_000n);

/** The error a chain call fails with, as a transaction request with `?account=` answers it. */
async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await blamingAccountField('query.account', () => promise).then(
    () => undefined,
    (e: unknown) => e,
  );
  const mapped = toApiError(error);
  expect(mapped).toBeInstanceOf(ApiError);
  return mapped!;
}

describe('Solana adapter: addresses, tx ids, URIs', () => {
  const adapter = solana();

  it('accepts a canonical 32-byte public key and returns it unchanged', () => {
    expect(adapter.normalizeAddress(merchant.toBase58())).toBe(merchant.toBase58());
    expect(adapter.normalizeAddress(USDT_MINT)).toBe(USDT_MINT);
  });

  it('refuses a 31-byte key, garbage, empty and the all-zero key', () => {
    const key31 = encodeBase58(merchant.toBytes().slice(1).fill(200, 0, 1));
    expect(decodeBase58(key31)?.length).toBe(31);
    expect(adapter.normalizeAddress(key31)).toBeNull();
    expect(adapter.normalizeAddress(encodeBase58(new Uint8Array(33).fill(9)))).toBeNull();
    expect(adapter.normalizeAddress('not-a-key!')).toBeNull();
    expect(adapter.normalizeAddress('0OIl' + merchant.toBase58().slice(4))).toBeNull();
    expect(adapter.normalizeAddress('')).toBeNull();
    expect(adapter.normalizeAddress(`${merchant.toBase58()} `)).toBeNull();
    expect(adapter.normalizeAddress(PublicKey.default.toBase58())).toBeNull();
    expect(adapter.normalizeAddress(EVM_RECIPIENT)).toBeNull();
  });

  it('round-trips base58 with leading zero bytes', () => {
    const bytes = new Uint8Array([0, 0, 1, 2, 255]);
    expect(encodeBase58(bytes)).toMatch(/^11/);
    expect(decodeBase58(encodeBase58(bytes))).toEqual(bytes);
    expect(decodeBase58(merchant.toBase58())).toEqual(merchant.toBytes());
  });

  it('encodes base58 as @solana/web3.js does (bs58), for keys with and without leading zero bytes', () => {
    for (let i = 0; i < 200; i++) {
      const bytes = Keypair.generate().publicKey.toBytes();
      bytes.fill(0, 0, i % 4); // some with 1-3 leading zero bytes
      expect(encodeBase58(bytes)).toBe(new PublicKey(bytes).toBase58());
    }
    expect(encodeBase58(new Uint8Array(32))).toBe(PublicKey.default.toBase58());
    expect(encodeBase58(new Uint8Array(0))).toBe('');
  });

  it('recognises 64-byte base58 signatures only', () => {
    const sig64 = encodeBase58(Keypair.generate().secretKey);
    const leadingZeros = encodeBase58(new Uint8Array(64).fill(0, 0, 3).fill(9, 3));
    expect(adapter.normalizeTxId(sig64) !== null).toBe(true);
    expect(adapter.normalizeTxId(leadingZeros) !== null).toBe(true);
    expect(adapter.normalizeTxId(encodeBase58(new Uint8Array(63).fill(9)))).toBeNull();
    expect(adapter.normalizeTxId(encodeBase58(new Uint8Array(65).fill(9)))).toBeNull();
    expect(adapter.normalizeTxId(merchant.toBase58()) !== null).toBe(false);
    expect(adapter.normalizeTxId(`${sig64.slice(0, -1)}0`) !== null).toBe(false);
    expect(adapter.normalizeTxId(`0x${'ab'.repeat(32)}`) !== null).toBe(false);
    expect(adapter.normalizeTxId('') !== null).toBe(false);
    expect(adapter.normalizeTxId(sig64.repeat(1000)) !== null).toBe(false);
  });

  it('builds a Solana Pay transfer request with the minimal amount and encoded label/message', () => {
    const m = merchant.toBase58();
    const r = reference.toBase58();
    expect(adapter.paymentUri(solanaTarget({ label: 'Café & Co', message: 'Order #42' }))).toBe(
      `solana:${m}?amount=10.5&spl-token=${USDT_MINT}&reference=${r}&label=Caf%C3%A9%20%26%20Co&message=Order%20%2342`,
    );
    expect(adapter.paymentUri(solanaTarget({ amountUnits: 10_000_000n, label: null, message: '' }))).toBe(
      `solana:${m}?amount=10&spl-token=${USDT_MINT}&reference=${r}`,
    );
    expect(adapter.paymentUri(solanaTarget({ amountUnits: 1n }))).toContain('amount=0.000001&');
  });

  it('maps tokens to mints; USDC is null unless configured', () => {
    expect(adapter.tokenMint('USDT')).toBe(USDT_MINT);
    expect(adapter.tokenMint('USDC')).toBeNull();
    expect(solana(undefined, undefined, USDC_MINT).tokenMint('USDC')).toBe(USDC_MINT);
    expect(() => solana(undefined, undefined, 'nope')).toThrow(/USDC mint/);
  });

  it('takes the median of the non-zero prioritization fees', () => {
    expect(medianNonZeroFee([])).toBe(0);
    expect(medianNonZeroFee([{ prioritizationFee: 0 }, { prioritizationFee: 0 }])).toBe(0);
    const fees = [1000, 0, 3000, 2000, 0].map((prioritizationFee) => ({ prioritizationFee }));
    expect(medianNonZeroFee(fees)).toBe(2000);
    expect(medianNonZeroFee([1, 2].map((prioritizationFee) => ({ prioritizationFee })))).toBe(2);
  });
});

describe('Solana adapter: account validation and an unreachable RPC', () => {
  const adapter = solana('http://127.0.0.1:1', 2000);

  it('requires a payer account that is an on-curve public key', async () => {
    for (const account of [undefined, '']) {
      const error = await rejection(adapter.buildPaymentTransaction(solanaTarget(), account));
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details).toEqual([{ path: 'query.account', message: 'is required on Solana' }]);
    }
    const bad = await rejection(adapter.buildPaymentTransaction(solanaTarget(), 'garbage'));
    expect(bad.details).toEqual([{ path: 'query.account', message: 'must be a Solana public key' }]);
    const offCurve = getAssociatedTokenAddressSync(new PublicKey(USDT_MINT), merchant, true);
    const pda = await rejection(adapter.buildPaymentTransaction(solanaTarget(), offCurve.toBase58()));
    expect(pda.code).toBe('VALIDATION_ERROR');
  });

  it('turns a refused connection into UPSTREAM_UNAVAILABLE quickly', async () => {
    const started = Date.now();
    const error = await rejection(adapter.buildPaymentTransaction(solanaTarget(), payer.toBase58()));
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/^Solana RPC unavailable: /);
    expect(Date.now() - started).toBeLessThan(2500);
  });
});

type RpcRequest = { jsonrpc: string; id: string | number; method: string; params?: unknown[] };
type RpcHandler = (request: RpcRequest, res: ServerResponse) => void;

async function startRpc(handler: RpcHandler): Promise<{ server: Server; url: string; methods: string[] }> {
  const methods: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const request = JSON.parse(body) as RpcRequest;
      methods.push(request.method);
      handler(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, methods };
}

function reply(res: ServerResponse, id: RpcRequest['id'], payload: Record<string, unknown>) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, ...payload }));
}

function healthyRpc(failFees = false): RpcHandler {
  return (request, res) => {
    if (request.method === 'getLatestBlockhash')
      return reply(res, request.id, {
        result: { context: { slot: 1 }, value: { blockhash: BLOCKHASH, lastValidBlockHeight: 100 } },
      });
    if (request.method === 'getAccountInfo')
      return reply(res, request.id, { result: tokenAccountInfoResult({ amount: 10n ** 12n }) });
    if (request.method === 'getRecentPrioritizationFees' && !failFees)
      return reply(res, request.id, {
        result: [1000, 0, 3000, 2000].map((prioritizationFee, slot) => ({ slot, prioritizationFee })),
      });
    reply(res, request.id, { error: { code: -32601, message: 'Method not found' } });
  };
}

function computeUnitPrice(tx: Transaction): bigint | undefined {
  const ix = tx.instructions.find(
    (i) =>
      i.programId.equals(ComputeBudgetProgram.programId) &&
      ComputeBudgetInstruction.decodeInstructionType(i) === 'SetComputeUnitPrice',
  );
  return ix ? BigInt(ComputeBudgetInstruction.decodeSetComputeUnitPrice(ix).microLamports) : undefined;
}

describe('Solana adapter: building the transaction against a local JSON-RPC server', () => {
  const servers: Server[] = [];
  let healthy: Awaited<ReturnType<typeof startRpc>>;

  beforeAll(async () => {
    healthy = await startRpc(healthyRpc());
    servers.push(healthy.server);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('returns an unsigned transfer the payer can sign', async () => {
    const adapter = solana(healthy.url);
    const result = await adapter.buildPaymentTransaction(solanaTarget(), payer.toBase58());
    expect(result.message).toBe('Pay 10.5 USDT');
    const tx = Transaction.from(Buffer.from(String(result.body.transaction), 'base64'));
    expect(tx.feePayer?.equals(payer)).toBe(true);
    expect(tx.recentBlockhash).toBe(BLOCKHASH);
    expect(tx.signatures.every((s) => s.signature === null)).toBe(true);

    const mint = new PublicKey(USDT_MINT);
    const merchantAta = getAssociatedTokenAddressSync(mint, merchant, true);
    const transferIx = tx.instructions.find((i) => i.programId.equals(TOKEN_PROGRAM_ID));
    if (!transferIx) throw new Error('no token instruction');
    const transfer = decodeTransferCheckedInstruction(transferIx);
    expect(transfer.data.amount).toBe(10_500_000n);
    expect(transfer.data.decimals).toBe(6);
    expect(transfer.keys.destination.pubkey.equals(merchantAta)).toBe(true);
    expect(transfer.keys.source.pubkey.equals(getAssociatedTokenAddressSync(mint, payer))).toBe(true);
    expect(transfer.keys.owner.pubkey.equals(payer)).toBe(true);
    const referenceKey = transferIx.keys.find((k) => k.pubkey.equals(reference));
    expect(referenceKey).toMatchObject({ isSigner: false, isWritable: false });

    const memo = tx.instructions.find((i) => i.programId.equals(MEMO_PROGRAM_ID));
    expect(memo?.data.toString('utf8')).toBe(`stablepay:${reference.toBase58()}`);
    expect(computeUnitPrice(tx)).toBe(2000n);
    expect(healthy.methods).toContain('getRecentPrioritizationFees');
  });

  it('falls back to a zero priority fee when the RPC does not serve prioritization fees', async () => {
    const rpc = await startRpc(healthyRpc(true));
    servers.push(rpc.server);
    const result = await solana(rpc.url).buildPaymentTransaction(
      solanaTarget({ message: 'Thanks' }),
      payer.toBase58(),
    );
    expect(result.message).toBe('Thanks');
    expect(computeUnitPrice(Transaction.from(Buffer.from(String(result.body.transaction), 'base64')))).toBe(
      0n,
    );
  });

  it('maps a non-JSON answer and a silent server to UPSTREAM_UNAVAILABLE', async () => {
    const html = await startRpc((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    });
    const silent = await startRpc(() => undefined);
    servers.push(html.server, silent.server);
    for (const url of [html.url, silent.url]) {
      const error = await rejection(
        solana(url, 300).buildPaymentTransaction(solanaTarget(), payer.toBase58()),
      );
      expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(error.message).not.toContain(url);
    }
    silent.server.closeAllConnections();
  });
});

describe('EVM adapter', () => {
  it('accepts lower-case and checksummed addresses, returning EIP-55 form', () => {
    expect(polygon.normalizeAddress(EVM_RECIPIENT.toLowerCase())).toBe(EVM_RECIPIENT);
    expect(polygon.normalizeAddress(EVM_RECIPIENT)).toBe(EVM_RECIPIENT);
    expect(polygon.normalizeAddress(`0x${EVM_RECIPIENT.slice(2).toUpperCase()}`)).toBe(EVM_RECIPIENT);
  });

  it('refuses a wrong checksum, the zero address and malformed input', () => {
    const wrongChecksum = EVM_RECIPIENT.replace('E0F', 'e0F');
    expect(wrongChecksum).not.toBe(EVM_RECIPIENT);
    expect(polygon.normalizeAddress(wrongChecksum)).toBeNull();
    expect(polygon.normalizeAddress(`0x${'0'.repeat(40)}`)).toBeNull();
    expect(polygon.normalizeAddress(EVM_RECIPIENT.slice(0, -1))).toBeNull();
    expect(polygon.normalizeAddress(EVM_RECIPIENT.slice(2))).toBeNull();
    expect(polygon.normalizeAddress(merchant.toBase58())).toBeNull();
  });

  it('recognises 32-byte hex transaction hashes', () => {
    expect(polygon.normalizeTxId(`0x${'aB'.repeat(32)}`) !== null).toBe(true);
    expect(polygon.normalizeTxId(`0x${'a'.repeat(63)}`) !== null).toBe(false);
    expect(polygon.normalizeTxId('ab'.repeat(32)) !== null).toBe(false);
    expect(polygon.normalizeTxId(`0x${'g'.repeat(64)}`) !== null).toBe(false);
  });

  it('maps tokens to checksummed contracts; USDC is not on EVM', () => {
    expect(polygon.tokenMint('USDT')).toBe(POLYGON_USDT);
    expect(ethereum.tokenMint('USDT')).toBe(ETHEREUM_USDT);
    expect(polygon.tokenMint('USDC')).toBeNull();
  });

  it('builds EIP-681 URIs with the chain id and base units', () => {
    expect(polygon.paymentUri(evmTarget())).toBe(
      `ethereum:${POLYGON_USDT}@137/transfer?address=${EVM_RECIPIENT}&uint256=25000000`,
    );
    expect(ethereum.paymentUri(evmTarget({ tokenMint: ETHEREUM_USDT, amountUnits: 1n }))).toBe(
      `ethereum:${ETHEREUM_USDT}@1/transfer?address=${EVM_RECIPIENT}&uint256=1`,
    );
  });

  it('builds ERC-20 transfer call data tagged with the order, without any RPC', async () => {
    const result = await polygon.buildPaymentTransaction(evmTarget(), undefined);
    expect(result.message).toBe('Pay 25 USDT');
    expect(result.body).toMatchObject({ chainId: 137, to: POLYGON_USDT, value: '0' });
    const data = result.body.data as `0x${string}`;
    const call = decodeFunctionData({ abi: erc20Abi, data });
    expect(call.functionName).toBe('transfer');
    expect(call.args).toEqual([getAddress(EVM_RECIPIENT), 25_000_000n]);
    // The order's tag: the reference's 32 bytes right after the two arguments.
    expect(data.length).toBe(2 + 8 + 64 * 3);
    expect(data.slice(-64)).toBe(Buffer.from(reference.toBytes()).toString('hex'));
    expect(tagOf(data)).toBe(reference.toBase58());

    const error = await rejection(polygon.buildPaymentTransaction(evmTarget(), 'not-an-address'));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details?.[0]?.path).toBe('query.account');
  });
});

describe('chain registry', () => {
  it('builds one adapter per network from configuration without touching the network', () => {
    const config = loadConfig({ SOLANA_RPC_URL: 'http://127.0.0.1:1', POLYGON_CHAIN_ID: '80002' });
    const registry = createChainRegistry(config);
    expect(
      registry
        .all()
        .map((a) => a.network)
        .sort(),
    ).toEqual(['ETHEREUM', 'POLYGON', 'SOLANA']);
    expect(registry.get('SOLANA').tokenMint('USDT')).toBe(USDT_MINT);
    expect(registry.get('SOLANA').tokenMint('USDC')).toBeNull();
    expect(registry.get('POLYGON').paymentUri(evmTarget())).toContain('@80002/transfer');
    expect(registry.get('ETHEREUM').tokenMint('USDT')).toBe(ETHEREUM_USDT);
  });
});
