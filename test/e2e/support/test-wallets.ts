import type { Keypair } from '@solana/web3.js';
import type { Page } from 'puppeteer-core';
import type { Hex } from 'viem';
import { decodeBase58 } from '../../../server/lib/base58';
import type { LocalEvm, LocalWallet } from '../../../sandbox/chains/evm/local-evm';
import type { LocalSolana } from '../../../sandbox/chains/solana/local-solana';
import { signSolanaBytes } from '../../../sandbox/chains/solana/sign-message';
import { ProviderRpcError, testEvmWallet } from '../../support/test-evm-wallet';

/**
 * Wallets injected into the page before it loads, as browser extensions inject theirs: an EIP-1193
 * provider (window.ethereum and an EIP-6963 announcement) and a Wallet Standard Solana wallet. The
 * page side only forwards; signing happens in Node (exposeFunction) with local keys against the
 * local chains, so the page pays for real.
 */

const ICON =
  'data:image/svg+xml;base64,' +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="6" fill="#7c3aed"/></svg>',
  ).toString('base64');

export type EvmWalletControl = {
  /** Requests the page made, in order. */
  calls: { method: string; params: unknown }[];
  /** The next eth_sendTransaction is refused like a user clicking Reject (4001). */
  rejectNextSend(): void;
  sent: Hex[];
  /** The messages personal_sign signed (as text), in order. */
  signedMessages: string[];
  /** The next personal_sign is refused like a user clicking Reject (4001). */
  rejectNextSign(): void;
};

/**
 * An EVM browser wallet holding `account`; it starts on `startChainId` and knows that chain and the
 * local node's, so paying a Polygon order makes the page switch it first (EIP-3326).
 */
export async function injectEvmWallet(
  page: Page,
  evm: LocalEvm,
  account: LocalWallet,
  startChainId: number,
): Promise<EvmWalletControl> {
  const wallet = testEvmWallet(account, {
    chainId: startChainId,
    chains: [
      { chainId: startChainId },
      { chainId: evm.chainId, node: { chain: evm.chain, url: evm.nodeUrl } },
    ],
  });
  const rejected = () => new ProviderRpcError(4001, 'User rejected the request.');
  const control: EvmWalletControl = {
    calls: wallet.calls,
    sent: wallet.sent,
    rejectNextSend: () => wallet.failNext('eth_sendTransaction', rejected()),
    signedMessages: wallet.signedMessages,
    rejectNextSign: () => wallet.failNext('personal_sign', rejected()),
  };
  const handle = (method: string, params: unknown) => wallet.request({ method, params });

  await page.exposeFunction('__testEvmRequest', async (json: string) => {
    const { method, params } = JSON.parse(json) as { method: string; params: unknown };
    try {
      return JSON.stringify({ result: await handle(method, params) });
    } catch (error) {
      const { code, message } = error as { code?: number; message?: string };
      return JSON.stringify({ error: { code: code ?? -32603, message: message ?? String(error) } });
    }
  });
  await page.evaluateOnNewDocument((icon: string) => {
    type Bridge = { __testEvmRequest(json: string): Promise<string> };
    const bridge = window as unknown as Bridge;
    const provider = {
      async request({ method, params }: { method: string; params?: unknown }) {
        const answer = JSON.parse(
          await bridge.__testEvmRequest(JSON.stringify({ method, params: params ?? [] })),
        );
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
        return answer.result;
      },
      on() {},
      removeListener() {},
    };
    (window as unknown as { ethereum: typeof provider }).ethereum = provider;
    const info = Object.freeze({
      uuid: '5f0e2b8e-0000-4000-8000-000000000001',
      name: 'Test EVM Wallet',
      icon,
      rdns: 'test.stablepay.evm',
    });
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
      );
    window.addEventListener('eip6963:requestProvider', announce);
    announce();
  }, ICON);
  return control;
}

export type SolanaWalletControl = {
  signatures: string[];
  rejectNext(): void;
  /** The messages solana:signMessage signed (as text), in order. */
  signedMessages: string[];
};

/**
 * A Wallet Standard wallet (standard:connect, solana:signAndSendTransaction, solana:signMessage)
 * holding `payer`. `rejectNext` refuses the next request of either kind.
 */
export async function injectSolanaWallet(
  page: Page,
  chain: LocalSolana,
  payer: Keypair,
): Promise<SolanaWalletControl> {
  let reject = false;
  const control: SolanaWalletControl = {
    signatures: [],
    rejectNext: () => (reject = true),
    signedMessages: [],
  };
  await page.exposeFunction('__testSolanaSignMessage', async (base64Message: string) => {
    if (reject) {
      reject = false;
      return JSON.stringify({ error: { code: 4001, message: 'User rejected the request.' } });
    }
    const message = Buffer.from(base64Message, 'base64');
    control.signedMessages.push(message.toString('utf8'));
    return JSON.stringify({ signature: Buffer.from(signSolanaBytes(payer, message)).toString('base64') });
  });
  await page.exposeFunction('__testSolanaSignAndSend', async (base64Tx: string) => {
    if (reject) {
      reject = false;
      return JSON.stringify({ error: { code: 4001, message: 'User rejected the request.' } });
    }
    const signature = await chain.signAndSend(base64Tx, payer);
    control.signatures.push(signature);
    return JSON.stringify({ signature: Buffer.from(decodeBase58(signature)!).toString('base64') });
  });
  await page.evaluateOnNewDocument(
    (address: string, publicKey: number[], icon: string) => {
      type Bridge = {
        __testSolanaSignAndSend(tx: string): Promise<string>;
        __testSolanaSignMessage(message: string): Promise<string>;
      };
      const bridge = window as unknown as Bridge;
      const chains = ['solana:mainnet', 'solana:devnet', 'solana:testnet', 'solana:localnet'] as const;
      const account = Object.freeze({
        address,
        publicKey: new Uint8Array(publicKey),
        chains,
        features: ['solana:signAndSendTransaction', 'solana:signMessage'],
      });
      let accounts: (typeof account)[] = [];
      const toBase64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));
      const fromBase64 = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const wallet = {
        version: '1.0.0',
        name: 'Test Solana Wallet',
        icon,
        chains,
        get accounts() {
          return accounts;
        },
        features: {
          'standard:connect': {
            version: '1.0.0',
            async connect() {
              accounts = [account];
              return { accounts };
            },
          },
          'standard:events': { version: '1.0.0', on: () => () => {} },
          'solana:signAndSendTransaction': {
            version: '1.0.0',
            supportedTransactionVersions: ['legacy', 0],
            async signAndSendTransaction(...inputs: { transaction: Uint8Array }[]) {
              return Promise.all(
                inputs.map(async ({ transaction }) => {
                  const answer = JSON.parse(await bridge.__testSolanaSignAndSend(toBase64(transaction)));
                  if (answer.error)
                    throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
                  return { signature: fromBase64(answer.signature) };
                }),
              );
            },
          },
          'solana:signMessage': {
            version: '1.0.0',
            async signMessage(...inputs: { message: Uint8Array }[]) {
              return Promise.all(
                inputs.map(async ({ message }) => {
                  const answer = JSON.parse(await bridge.__testSolanaSignMessage(toBase64(message)));
                  if (answer.error)
                    throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
                  return { signedMessage: message, signature: fromBase64(answer.signature) };
                }),
              );
            },
          },
        },
      };
      // The Wallet Standard handshake, both ways round: whoever loads first, the app gets the wallet.
      const callback = ({ register }: { register(w: typeof wallet): unknown }) => register(wallet);
      window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }));
      window.addEventListener('wallet-standard:app-ready', (event) =>
        callback((event as CustomEvent<{ register(w: typeof wallet): unknown }>).detail),
      );
    },
    payer.publicKey.toBase58(),
    Array.from(payer.publicKey.toBytes()),
    ICON,
  );
  return control;
}
