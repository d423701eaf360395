import type { FacilitatorEvmSigner } from '@x402/evm';
import {
  concat,
  encodeFunctionData,
  formatEther,
  formatGwei,
  keccak256,
  parseGwei,
  TransactionNotFoundError,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Deps } from '../deps';
import { withGasKeyLock } from './gas-key-lock';
import type { X402EvmNetwork } from './x402-networks';

/** A settlement the facilitator refused before anything was sent: the authorization stays usable. */
export class RefusedBeforeSending extends Error {
  override name = 'RefusedBeforeSending';
  constructor(
    readonly reason:
      'gas_price_too_high' | 'insufficient_gas_funds' | 'transaction_rejected' | 'claim_expired',
    message: string,
  ) {
    super(message);
  }
}

/** The claim on the payment expired while its settlement waited (expireClaims): nothing may be sent. */
export const claimExpired = () =>
  new RefusedBeforeSending(
    'claim_expired',
    'This settlement waited so long that its claim on the payment expired: nothing was sent; present it again',
  );

/** What one settlement learns of its own transaction. */
export type SendWatch = {
  /**
   * The signed transaction's hash, recorded before it is broadcast. False: the claim on the
   * authorization expired meanwhile (expireClaims), and nothing may be sent.
   */
  onSigned(hash: string): Promise<boolean>;
  /** Set when the facilitator refused to send (the scheme's own error hides why). */
  refused?: RefusedBeforeSending;
  /** The transaction sent (possibly, when the broadcast's answer was lost). */
  sent?: string;
};

/** Errors after which the broadcast may have reached the node all the same. */
const UNCERTAIN = new Set(['HttpRequestError', 'TimeoutError', 'ChainUnavailableError', 'AbortError']);
const uncertain = (error: unknown) => {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++)
    if (UNCERTAIN.has(e.name)) return true;
  return false;
};

/** Whether the node has the transaction (pending or included); unsure counts as known. */
export async function nodeKnows(client: PublicClient, hash: Hex): Promise<boolean> {
  try {
    await client.getTransaction({ hash });
    return true;
  } catch (error) {
    return !(error instanceof TransactionNotFoundError);
  }
}

/**
 * @x402/evm's facilitator signer over the network's RPC with the operator's gas key. Reads and
 * signature checks go to the chain; sends (given `watch`, one settlement's) are serialized per gas
 * key (withGasKeyLock), refused before anything leaves when the gas price is above
 * X402_MAX_GAS_GWEI or the key cannot pay for the gas, signed here so the hash is recorded before
 * the broadcast, and waited for at most X402_SETTLE_TIMEOUT_MS (then `settlement_pending`).
 */
export function facilitatorEvmSigner(
  deps: Pick<Deps, 'db' | 'config'>,
  net: X402EvmNetwork,
  privateKey: Hex,
  watch?: SendWatch,
): FacilitatorEvmSigner {
  const account = privateKeyToAccount(privateKey);
  const client = net.client;

  async function send(to: Address, data: Hex, gasGiven?: bigint): Promise<Hex> {
    if (!watch) throw new Error('this x402 signer only verifies');
    const refuse = (error: RefusedBeforeSending) => {
      watch.refused = error;
      throw error;
    };
    return withGasKeyLock(deps, account.address, async () => {
      const fees = await client.estimateFeesPerGas();
      const ceiling = parseGwei(String(deps.config.x402.maxGasGwei));
      if (fees.maxFeePerGas > ceiling)
        refuse(
          new RefusedBeforeSending(
            'gas_price_too_high',
            `${net.network}'s gas price (${formatGwei(fees.maxFeePerGas)} gwei) is above X402_MAX_GAS_GWEI (${formatGwei(ceiling)}): nothing was sent, the authorization is still usable`,
          ),
        );
      const gas = gasGiven ?? ((await client.estimateGas({ account: account.address, to, data })) * 6n) / 5n;
      const cost = gas * fees.maxFeePerGas;
      const balance = await client.getBalance({ address: account.address });
      if (balance < cost)
        refuse(
          new RefusedBeforeSending(
            'insufficient_gas_funds',
            `The facilitator's gas key ${account.address} holds ${formatEther(balance)} in ${net.network}'s native coin, less than the ${formatEther(cost)} this settlement may cost: fund it (X402_EVM_PRIVATE_KEY). Nothing was sent; the authorization is still usable`,
          ),
        );
      const nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
      const serialized = await account.signTransaction({
        chainId: net.chainId,
        type: 'eip1559',
        to,
        data,
        gas,
        nonce,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      const hash = keccak256(serialized);
      if (!(await watch.onSigned(hash))) refuse(claimExpired());
      try {
        await client.sendRawTransaction({ serializedTransaction: serialized });
      } catch (error) {
        // A refusal after a lost answer ("already known", from the node or the next endpoint the
        // pool failed over to) is no refusal: the node knowing the transaction means it went out.
        if (!uncertain(error) && !(await nodeKnows(client, hash))) {
          const message = (error as { shortMessage?: string }).shortMessage ?? String(error);
          refuse(
            new RefusedBeforeSending('transaction_rejected', `The node refused the transaction: ${message}`),
          );
        }
        // The answer was lost: it may be on its way; the receipt wait (then the verifier) tells.
      }
      watch.sent = hash;
      return hash;
    });
  }

  return {
    getAddresses: () => [account.address],
    readContract: (args) =>
      client.readContract(args as Parameters<typeof client.readContract>[0]) as Promise<unknown>,
    verifyTypedData: (args) => client.verifyTypedData(args as Parameters<typeof client.verifyTypedData>[0]),
    writeContract: (args) => {
      const call = encodeFunctionData({
        abi: args.abi as Abi,
        functionName: args.functionName,
        args: args.args,
      });
      return send(args.address, args.dataSuffix ? concat([call, args.dataSuffix]) : call, args.gas);
    },
    sendTransaction: (args) => send(args.to, args.data),
    waitForTransactionReceipt: async ({ hash }) => {
      const receipt = await client.waitForTransactionReceipt({
        hash,
        timeout: deps.config.x402.settleTimeoutMs,
        pollingInterval: 250,
      });
      return { status: receipt.status, logs: receipt.logs };
    },
    getCode: ({ address }) => client.getCode({ address }),
  };
}
