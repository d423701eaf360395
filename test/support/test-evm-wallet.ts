import {
  createWalletClient,
  hexToBigInt,
  hexToNumber,
  hexToString,
  http,
  isHex,
  numberToHex,
  type Address,
  type Chain,
  type Hex,
} from 'viem';
import type { LocalWallet } from '../../sandbox/chains/evm/local-evm';

/** An EIP-1193 error as wallets throw them (MetaMask's ProviderRpcError: an Error with a code). */
export class ProviderRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A chain the wallet knows; with a node, it can send there. */
export type KnownChain = { chainId: number; node?: { chain: Chain; url: string } };

export type TestEvmWallet = {
  /** EIP-1193's request, answered in Node with the wallet's key against the local nodes. */
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  /** Every request, in order. */
  calls: { method: string; params: unknown }[];
  /** Hashes of the transactions it sent. */
  sent: Hex[];
  /** The messages personal_sign signed (as text), in order. */
  signedMessages: string[];
  /** The wallet's current chain. */
  readonly chainId: number;
  /** The next request of `method` fails with `error` (once), like a user clicking Reject. */
  failNext(method: string, error: ProviderRpcError): void;
};

/**
 * The Node side of a browser wallet for tests: holds `account`, knows the chains given (switching
 * between them; 4902 for any other, as MetaMask does), signs eth_sendTransaction with viem's wallet
 * client and sends it to the node of its current chain (a deployment when it has no `to`), passes
 * eth_getTransactionReceipt through to that node, and signs personal_sign messages (EIP-191).
 * Answers accounts in lower case, as MetaMask does.
 */
export function testEvmWallet(
  account: LocalWallet,
  opts: { chainId: number; chains: KnownChain[] },
): TestEvmWallet {
  const known = new Map(opts.chains.map((c) => [c.chainId, c]));
  const clients = new Map(
    opts.chains.flatMap(({ chainId, node }) =>
      node
        ? [
            [
              chainId,
              createWalletClient({
                account,
                chain: node.chain,
                transport: http(node.url, { retryCount: 0 }),
              }),
            ],
          ]
        : [],
    ),
  );
  let current = opts.chainId;
  const failures = new Map<string, ProviderRpcError>();
  const ours = (address: string) => address.toLowerCase() === account.address.toLowerCase();
  const wallet: TestEvmWallet = {
    calls: [],
    sent: [],
    signedMessages: [],
    get chainId() {
      return current;
    },
    failNext: (method, error) => void failures.set(method, error),
    async request({ method, params }) {
      wallet.calls.push({ method, params });
      const failure = failures.get(method);
      if (failure) {
        failures.delete(method);
        throw failure;
      }
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [account.address.toLowerCase()];
        case 'eth_chainId':
          return numberToHex(current);
        case 'wallet_switchEthereumChain': {
          const [{ chainId }] = params as [{ chainId: Hex }];
          if (!known.has(hexToNumber(chainId)))
            throw new ProviderRpcError(
              4902,
              `Unrecognized chain ID "${chainId}". Try adding the chain using wallet_addEthereumChain first.`,
            );
          current = hexToNumber(chainId);
          return null;
        }
        case 'eth_sendTransaction': {
          const [tx] = params as [{ from?: string; to: Address; data: Hex; value?: Hex }];
          if (tx.from !== undefined && !ours(tx.from))
            throw new ProviderRpcError(4100, 'The requested account has not been authorized by the user.');
          const client = clients.get(current);
          if (!client) throw new ProviderRpcError(-32603, `no node for chain ${current}`);
          const hash = await client.sendTransaction({
            account,
            chain: client.chain,
            to: tx.to,
            data: tx.data,
            value: tx.value ? hexToBigInt(tx.value) : 0n,
          });
          wallet.sent.push(hash);
          return hash;
        }
        case 'eth_getTransactionReceipt': {
          // Wallets pass reads through to their node, as MetaMask does (pages wait for a receipt).
          const client = clients.get(current);
          if (!client) throw new ProviderRpcError(-32603, `no node for chain ${current}`);
          const [hash] = params as [Hex];
          return client.transport.request({ method: 'eth_getTransactionReceipt', params: [hash] });
        }
        case 'personal_sign': {
          // EIP-191 of the bytes given (hex, as pages send them), by the account it names.
          const [data, address] = params as [Hex, string];
          if (!ours(address)) throw new ProviderRpcError(4100, `not the wallet's account: ${address}`);
          if (!isHex(data)) throw new ProviderRpcError(-32602, 'personal_sign takes hex data here');
          wallet.signedMessages.push(hexToString(data));
          return account.signMessage({ message: { raw: data } });
        }
        default:
          throw new ProviderRpcError(4200, `The provider does not support ${method}`);
      }
    },
  };
  return wallet;
}
