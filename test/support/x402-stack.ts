import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { HTTPFacilitatorClient, type FacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme as ExactEvmServerScheme } from '@x402/evm/exact/server';
import { ExactSvmScheme as ExactSvmServerScheme } from '@x402/svm/exact/server';
import { ExactSvmScheme as ExactSvmClientScheme } from '@x402/svm/exact/client';
import { SOLANA_MAINNET_CAIP2, toClientSvmSigner } from '@x402/svm';
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import {
  ComputeBudgetProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
  type Connection,
  type Keypair,
  type PublicKey,
} from '@solana/web3.js';
import { MEMO_PROGRAM_ID } from '../../sandbox/chains/solana/local-solana';
import { createKeyPairSignerFromBytes } from '@solana/kit';
import { ExactEvmScheme as ExactEvmClientScheme } from '@x402/evm/exact/client';
import { toClientEvmSigner } from '@x402/evm';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import type { Address, Hex, PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * The x402 ecosystem's own parts around the service: an API paid per call (@x402/express) whose
 * facilitator is the service (its /x402 routes, with the API key in the headers), and a paying
 * client (@x402/fetch with @x402/evm's client scheme, signing EIP-3009 authorizations).
 */

export type PaidApi = { url: string; calls: number; stop(): Promise<void> };

/** An Express API charging `amountUnits` of `asset` to `payTo` for GET /paid. */
export async function startPaidApi(opts: {
  facilitatorUrl: string;
  apiKey: string | null;
  /** A facilitator client of its own (the SDK's x402.facilitator()) instead of @x402/core's HTTP one. */
  facilitator?: FacilitatorClient;
  network: `eip155:${number}` | `solana:${string}`;
  asset: string;
  payTo: string;
  amountUnits: string;
  /** EVM: the token's EIP-712 name and version. */
  eip712?: { name: string; version: string };
}): Promise<PaidApi> {
  const headers: Record<string, string> = opts.apiKey ? { Authorization: `Bearer ${opts.apiKey}` } : {};
  const facilitator =
    opts.facilitator ??
    new HTTPFacilitatorClient({
      url: opts.facilitatorUrl,
      createAuthHeaders: async () => ({ verify: headers, settle: headers, supported: headers }),
    });
  const scheme = opts.network.startsWith('solana:') ? new ExactSvmServerScheme() : new ExactEvmServerScheme();
  const server = new x402ResourceServer(facilitator).register(opts.network, scheme);
  const app = express();
  const state = { calls: 0 };
  app.use(
    paymentMiddleware(
      {
        'GET /paid': {
          accepts: {
            scheme: 'exact',
            network: opts.network,
            payTo: opts.payTo,
            price: {
              amount: opts.amountUnits,
              asset: opts.asset,
              ...(opts.eip712 ? { extra: opts.eip712 } : {}),
            },
            maxTimeoutSeconds: 120,
          },
          description: 'A paid answer',
          mimeType: 'application/json',
        },
      },
      server,
    ),
  );
  app.get('/paid', (_req, res) => {
    state.calls++;
    res.json({ answer: 42 });
  });
  const listener = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => listener.once('listening', resolve));
  const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  return {
    url,
    get calls() {
      return state.calls;
    },
    stop: () => new Promise<void>((resolve) => listener.close(() => resolve())),
  };
}

/** A payer's fetch that pays x402 402s with EIP-3009 authorizations of `asset`. */
export function payingFetch(
  privateKey: Hex,
  publicClient: PublicClient,
  network: `eip155:${number}`,
  asset: Address,
) {
  const signer = toClientEvmSigner(privateKeyToAccount(privateKey), publicClient);
  const client = x402Client.fromConfig({
    schemes: [{ network, client: new ExactEvmClientScheme(signer) }],
    spendControls: { allowedAssets: [{ network, asset }] },
  });
  return { fetch: wrapFetchWithPayment(fetch, client), client };
}

/**
 * A payer's fetch that pays x402 402s on Solana: @x402/svm's client scheme builds the transfer
 * (compute budget, TransferChecked, memo), signs it as the token owner and leaves the fee payer's
 * signature to the facilitator. `rpcUrl`: the chain it reads the mint and a blockhash from.
 */
export async function payingSolanaFetch(
  secretKey: Uint8Array,
  rpcUrl: string,
  network: `solana:${string}`,
  asset: string,
) {
  const signer = toClientSvmSigner(await createKeyPairSignerFromBytes(secretKey));
  const client = x402Client.fromConfig({
    schemes: [{ network, client: new ExactSvmClientScheme(signer, { rpcUrl }) }],
    spendControls: { allowedAssets: [{ network, asset }] },
  });
  return { fetch: wrapFetchWithPayment(fetch, client), client };
}

export { decodePaymentResponseHeader };

const AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/**
 * A facilitator request body as @x402/express sends it, with an EIP-3009 authorization signed by
 * `payer` (x402 v2 `exact`), each part overridable so the tests can make it wrong.
 */
export async function signedPayment(
  payer: { address: Address; signTypedData: LocalSigner['signTypedData'] },
  o: {
    chainId: number;
    asset: Address;
    payTo: Address;
    amountUnits: bigint;
    /** What the authorization says when it differs from the requirements. */
    authorizedUnits?: bigint;
    validAfter?: bigint;
    validBefore?: bigint;
    resource?: string;
    eip712?: { name: string; version: string };
  },
) {
  const now = BigInt(Math.floor(Date.now() / 1000));
  const eip712 = o.eip712 ?? { name: 'USD Coin', version: '2' };
  const message = {
    from: payer.address,
    to: o.payTo,
    value: o.authorizedUnits ?? o.amountUnits,
    validAfter: o.validAfter ?? now - 600n,
    validBefore: o.validBefore ?? now + 300n,
    nonce: `0x${randomBytes(32).toString('hex')}` as Hex,
  };
  const signature = await payer.signTypedData({
    domain: { ...eip712, chainId: o.chainId, verifyingContract: o.asset },
    types: AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message,
  });
  const requirements = {
    scheme: 'exact',
    network: `eip155:${o.chainId}`,
    asset: o.asset,
    amount: o.amountUnits.toString(),
    payTo: o.payTo,
    maxTimeoutSeconds: 120,
    extra: eip712,
  };
  return {
    x402Version: 2,
    paymentPayload: {
      x402Version: 2,
      resource: { url: o.resource ?? 'https://api.example.test/report', mimeType: 'application/json' },
      accepted: requirements,
      payload: {
        authorization: {
          ...message,
          value: message.value.toString(),
          validAfter: message.validAfter.toString(),
          validBefore: message.validBefore.toString(),
        },
        signature,
      },
    },
    paymentRequirements: requirements,
  };
}
type LocalSigner = ReturnType<typeof privateKeyToAccount>;

export type SolanaPaymentOptions = {
  /** The mint transferred and asked (default the one given). */
  mint?: PublicKey;
  /** What the transfer moves when it differs from the requirements' amount. */
  units?: bigint;
  /** The requirements' amount (default 0.01 at 6 decimals). */
  amountUnits?: bigint;
  /** The transfer's source owner and authority (default the payer). */
  authority?: PublicKey;
  /** More instructions after the memo. */
  more?: TransactionInstruction[];
  /** The CAIP-2 id (default mainnet's, which the local chain stands in for). */
  network?: `solana:${string}`;
};

/**
 * A facilitator request body as @x402/express sends it on Solana: the payer's transfer laid out as
 * @x402/svm's client lays it out (compute limit, compute price, TransferChecked, memo), the
 * facilitator's fee payer first, signed by the payer only. Each part overridable so the tests can
 * make it wrong.
 */
export async function solanaPayment(
  connection: Connection,
  p: { from: Keypair; payTo: PublicKey; mint: PublicKey; feePayer: PublicKey } & SolanaPaymentOptions,
) {
  const mint = p.mint;
  const authority = p.authority ?? p.from.publicKey;
  const amountUnits = p.amountUnits ?? 10_000n;
  const { blockhash } = await connection.getLatestBlockhash('confirmed');
  const message = new TransactionMessage({
    payerKey: p.feePayer,
    recentBlockhash: blockhash,
    instructions: [
      ComputeBudgetProgram.setComputeUnitLimit({ units: 20_000 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1 }),
      createTransferCheckedInstruction(
        getAssociatedTokenAddressSync(mint, authority, true),
        mint,
        getAssociatedTokenAddressSync(mint, p.payTo, true),
        authority,
        p.units ?? amountUnits,
        6,
      ),
      new TransactionInstruction({
        programId: MEMO_PROGRAM_ID,
        keys: [],
        data: Buffer.from(randomBytes(16).toString('hex')),
      }),
      ...(p.more ?? []),
    ],
  }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  const signers = message.staticAccountKeys.slice(0, message.header.numRequiredSignatures);
  if (signers.some((key) => key.equals(p.from.publicKey))) tx.sign([p.from]);
  const requirements = {
    scheme: 'exact',
    network: p.network ?? SOLANA_MAINNET_CAIP2,
    asset: mint.toBase58(),
    amount: amountUnits.toString(),
    payTo: p.payTo.toBase58(),
    maxTimeoutSeconds: 60,
    extra: { feePayer: p.feePayer.toBase58() },
  };
  return {
    x402Version: 2,
    paymentPayload: {
      x402Version: 2,
      resource: { url: 'https://api.example.test/report', mimeType: 'application/json' },
      accepted: requirements,
      payload: { transaction: Buffer.from(tx.serialize()).toString('base64') },
    },
    paymentRequirements: requirements,
  };
}
