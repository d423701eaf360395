import { privateKeyToAccount } from 'viem/accounts';
import { EVM_NETWORK_TABLE, type X402GasKey, type X402GasKeys } from '../../contract';
import { formatAmount } from '../../contract/decimal';
import type { Deps } from '../deps';
import type { X402EvmNetwork } from './x402-networks';
import { x402EvmNetworks } from './x402-networks';
import { solanaFeePayer, x402SolanaNetwork } from './x402-solana';

/**
 * The gas one EVM settlement may take: transferWithAuthorization uses about 60,000 to 80,000,
 * and the signer asks for its estimate and a fifth more (evm-signer.ts).
 */
const EVM_SETTLEMENT_GAS = 100_000n;
const EVM_COIN_DECIMALS = 18;
/** A count the API can write exactly (a free gas price leaves it unbounded). */
const MOST = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * GET /dashboard/x402/gas-keys: each gas key's (and the Solana fee payer's) balance, about how many settlements it pays for at
 * the gas price now, and whether that is below X402_GAS_WARN_SETTLEMENTS. The networks are asked
 * side by side; one that cannot be asked shows no balance rather than failing the others.
 */
export async function listGasKeys(deps: Pick<Deps, 'config' | 'logger' | 'chains'>): Promise<X402GasKeys> {
  const { evmPrivateKey: key, solanaFeePayerKey } = deps.config.x402;
  const gasKeys = await Promise.all([
    ...(key
      ? x402EvmNetworks(deps).map((net) => evmGasKey(deps, net, privateKeyToAccount(key).address))
      : []),
    ...(solanaFeePayerKey ? [solanaGasKey(deps)] : []),
  ]);
  return {
    warnBelowSettlements: deps.config.x402.gasWarnSettlements,
    gasKeys,
    notConfigured: [
      ...(key ? [] : ['X402_EVM_PRIVATE_KEY']),
      ...(solanaFeePayerKey ? [] : ['X402_SOLANA_FEE_PAYER_KEY']),
    ],
  };
}

/**
 * What one Solana settlement costs its fee payer: two signatures at 5,000 lamports, and the
 * payer's priority fee (@x402/svm's client asks 20,000 units at 1 micro-lamport: nothing to speak of).
 */
const SOLANA_SETTLEMENT_LAMPORTS = 10_000n;
const SOL_DECIMALS = 9;

type Shown = Pick<X402GasKey, 'network' | 'caip2' | 'address' | 'coin'>;

/**
 * A key as the page shows it: its balance (`read`: in base units, with what one settlement costs
 * now) and about how many settlements that pays for; without them when the network cannot be asked.
 */
async function gasKeyShown(
  deps: Pick<Deps, 'config' | 'logger' | 'chains'>,
  shown: Shown,
  decimals: number,
  read: () => Promise<{ balance: bigint; perSettlement: bigint }>,
): Promise<X402GasKey> {
  try {
    const { balance, perSettlement } = await read();
    const left = balance / perSettlement;
    const settlementsLeft = Number(left > MOST ? MOST : left);
    return {
      ...shown,
      balance: formatAmount(balance, decimals),
      settlementsLeft,
      low: settlementsLeft < deps.config.x402.gasWarnSettlements,
    };
  } catch (error) {
    deps.logger.warn({ err: error, network: shown.network }, "x402 gas key's balance could not be read");
    return { ...shown, balance: null, settlementsLeft: null, low: null };
  }
}

function solanaGasKey(deps: Pick<Deps, 'config' | 'logger' | 'chains'>): Promise<X402GasKey> {
  const net = x402SolanaNetwork(deps);
  const feePayer = solanaFeePayer(deps).publicKey;
  const shown = { network: net.network, caip2: net.caip2, address: feePayer.toBase58(), coin: 'SOL' };
  return gasKeyShown(deps, shown, SOL_DECIMALS, async () => ({
    balance: BigInt(await net.connection.getBalance(feePayer, 'confirmed')),
    perSettlement: SOLANA_SETTLEMENT_LAMPORTS,
  }));
}

function evmGasKey(
  deps: Pick<Deps, 'config' | 'logger' | 'chains'>,
  net: X402EvmNetwork,
  address: `0x${string}`,
): Promise<X402GasKey> {
  const shown = {
    network: net.network,
    caip2: net.caip2,
    address,
    coin: EVM_NETWORK_TABLE[net.network].nativeCoin,
  };
  return gasKeyShown(deps, shown, EVM_COIN_DECIMALS, async () => {
    const [balance, fees] = await Promise.all([
      net.client.getBalance({ address }),
      net.client.estimateFeesPerGas(),
    ]);
    const price = fees.maxFeePerGas > 0n ? fees.maxFeePerGas : 1n;
    return { balance, perSettlement: EVM_SETTLEMENT_GAS * price };
  });
}
