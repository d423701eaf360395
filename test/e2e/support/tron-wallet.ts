import type { Page } from 'puppeteer-core';
import { TronWeb } from 'tronweb';
import type { LocalTron, TronTransaction, TronWallet } from '../../../sandbox/chains/tron';

/**
 * A TronLink stand-in injected before the page loads, as the extension injects itself: it answers
 * TIP-6963's `TIP6963:requestProvider` with an announcement named TronLink whose provider is a
 * TIP-1193 object (also window.tron). Its tronWeb has no account until `eth_requestAccounts`, as
 * TronLink's before the site is connected. `trx.sign` signs in Node with the wallet's key (tronweb's
 * trx.sign), `trx.signMessageV2` signs TIP-191 messages there too; `trx.sendRawTransaction` posts
 * to the local chain's /wallet/broadcasttransaction.
 * The shape follows the adapter's own test double (packages/adapters/tronlink/tests/units/mock.ts).
 */

export type TronWalletControl = {
  /** Provider requests the page made (TIP-1193 methods, with their params as JSON), in order. */
  requests: string[];
  /** The messages signMessageV2 signed, in order. */
  signedMessages: string[];
  /** txIDs of the transactions the wallet signed, in order. */
  signed: string[];
  /** What /wallet/broadcasttransaction answered, in order. */
  broadcasts: { result?: boolean; txid?: string; code?: string; message?: string }[];
};

export async function injectTronWallet(
  page: Page,
  tron: LocalTron,
  wallet: TronWallet,
): Promise<TronWalletControl> {
  const control: TronWalletControl = { requests: [], signedMessages: [], signed: [], broadcasts: [] };
  const signer = new TronWeb({ fullHost: tron.url });
  await page.exposeFunction('__testTronSignMessage', async (message: string) => {
    control.signedMessages.push(message);
    return signer.trx.signMessageV2(message, wallet.privateKey);
  });
  await page.exposeFunction('__testTronRequest', (json: string) => {
    const { method, params } = JSON.parse(json) as { method: string; params?: unknown };
    control.requests.push(params === undefined ? method : `${method} ${JSON.stringify(params)}`);
    if (method === 'eth_requestAccounts') return JSON.stringify({ result: [wallet.address] });
    // On the local chain already (its chain id is mainnet's): nothing to switch.
    if (method === 'wallet_switchEthereumChain') return JSON.stringify({ result: null });
    return JSON.stringify({ error: { code: 4200, message: `unsupported method ${method}` } });
  });
  await page.exposeFunction('__testTronSign', async (json: string) => {
    const signed = await tron.sign(JSON.parse(json) as TronTransaction, wallet);
    control.signed.push(signed.txID);
    return JSON.stringify(signed);
  });
  await page.exposeFunction('__testTronBroadcast', async (json: string) => {
    const res = await fetch(`${tron.url}/wallet/broadcasttransaction`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: json,
      signal: AbortSignal.timeout(10_000),
    });
    const answer = (await res.json()) as TronWalletControl['broadcasts'][number];
    control.broadcasts.push(answer);
    return JSON.stringify(answer);
  });
  await page.evaluateOnNewDocument(
    (address: string, hex: string) => {
      type Bridge = {
        __testTronRequest(method: string): Promise<string>;
        __testTronSign(json: string): Promise<string>;
        __testTronSignMessage(message: string): Promise<string>;
        __testTronBroadcast(json: string): Promise<string>;
      };
      const bridge = window as unknown as Bridge;
      const tronWeb = {
        defaultAddress: { base58: false as string | false, hex: false as string | false },
        trx: {
          sign: async (tx: unknown) => JSON.parse(await bridge.__testTronSign(JSON.stringify(tx))),
          signMessageV2: (message: string) => bridge.__testTronSignMessage(message),
          sendRawTransaction: async (signed: unknown) =>
            JSON.parse(await bridge.__testTronBroadcast(JSON.stringify(signed))),
        },
      };
      const provider = {
        isTronLink: true,
        tronWeb,
        async request({ method, params }: { method: string; params?: unknown }) {
          const answer = JSON.parse(await bridge.__testTronRequest(JSON.stringify({ method, params })));
          if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
          tronWeb.defaultAddress = { base58: address, hex };
          return answer.result;
        },
        on() {},
        removeListener() {},
      };
      (window as unknown as { tron: typeof provider }).tron = provider;
      const info = Object.freeze({
        uuid: '5f0e2b8e-0000-4000-8000-000000000003',
        name: 'TronLink',
        icon: '',
        rdns: 'org.tronlink.www',
      });
      window.addEventListener('TIP6963:requestProvider', () =>
        window.dispatchEvent(
          new CustomEvent('TIP6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
        ),
      );
    },
    wallet.address,
    `41${wallet.hex.slice(2).toLowerCase()}`,
  );
  return control;
}
