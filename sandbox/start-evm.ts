import { getAddress, numberToHex, parseEther, toHex, type Address, type Hex } from 'viem';
import { EVM_NETWORK_TABLE, type EvmNetwork, type SandboxChainInfo } from '../contract';
import { decodeBase58 } from '../server/lib/base58';
import { startLocalEvm } from './chains/evm/local-evm';

/** Blocks on top of a payment before the sandbox's service takes it as final. */
const SANDBOX_CONFIRMATIONS = 2;
/** A block every second besides one per transaction: payments become final by themselves. */
const BLOCK_TIME_MS = 1000;
const GAS = parseEther('1000');

/**
 * One sandbox EVM chain: a Hardhat node at the network's mainnet chain id with a USDT of the real
 * token's decimals (18 on BSC), a payer, and the merchant's wallet funded with gas for refunds.
 * Where the real USDC has EIP-3009 (the network table's `eip3009`), a USDC with it too
 * (UsdcToken.sol) and a funded gas key for the x402 facilitator (X402_EVM_PRIVATE_KEY): the sandbox
 * offers x402 there.
 */
export async function startSandboxEvm(network: EvmNetwork, merchantKey: Hex, x402GasKey: Hex) {
  const { chainId, tokens } = EVM_NETWORK_TABLE[network];
  const decimals = tokens.USDT.decimals;
  const chain = await startLocalEvm({ chainId });
  const usdt = getAddress(await chain.deployToken({ decimals }));
  const usdc = 'eip3009' in tokens.USDC ? getAddress(await chain.deployUsdc()) : null;
  if (usdc) await chain.newWallet({ eth: GAS, privateKey: x402GasKey });
  const payer = await chain.newWallet({ eth: GAS });
  const merchant = await chain.newWallet({ eth: GAS, privateKey: merchantKey });
  await chain.rpc('evm_setIntervalMining', [BLOCK_TIME_MS]);
  const info: SandboxChainInfo = {
    network,
    kind: 'evm',
    rpcUrl: chain.url,
    chainId,
    tokens: [
      { symbol: 'USDT', contract: usdt, decimals },
      ...(usdc ? [{ symbol: 'USDC' as const, contract: usdc, decimals: 6 }] : []),
    ],
    wallet: { address: merchant.address, privateKey: merchantKey },
  };
  return {
    chain,
    info,
    env: {
      [`${network}_RPC_URL`]: chain.url,
      [`USDT_CONTRACT_${network}`]: usdt,
      // No USDC on the local chain: off, rather than a mainnet contract that is not there.
      [`USDC_CONTRACT_${network}`]: usdc ?? 'none',
      ...(usdc ? { [`USDC_DECIMALS_${network}`]: '6' } : {}),
      [`${network}_CHAIN_ID`]: String(chainId),
      [`${network}_CONFIRMATIONS`]: String(SANDBOX_CONFIRMATIONS),
    },
    /** The order's tag follows the transfer call, as in the transaction request's call data. */
    async pay(o: { token: string; to: string; units: bigint; tag: string | null }) {
      const token = getAddress(o.token);
      await chain.mint(token, payer.address, o.units);
      return chain.transfer({
        from: payer,
        token,
        to: getAddress(o.to),
        units: o.units,
        dataSuffix: o.tag === null ? undefined : toHex(decodeBase58(o.tag)!),
      });
    },
    async fund(o: { address: string; token: string; units: bigint }) {
      const to = getAddress(o.address);
      const balance = await chain.publicClient.getBalance({ address: to });
      await chain.rpc('hardhat_setBalance', [to, numberToHex(balance + GAS)]);
      return [await chain.mint(getAddress(o.token), to, o.units)];
    },
    async advance(blocks: number, seconds: number) {
      if (seconds > 0) await chain.rpc('evm_increaseTime', [seconds]);
      // A moved clock shows in the next block's timestamp: mine at least one then.
      if (blocks > 0 || seconds > 0) await chain.mine(Math.max(blocks, 1));
      return { network, blockNumber: Number(await chain.blockNumber()) };
    },
    async sendRefund(from: string, transaction: unknown) {
      if (from.toLowerCase() !== merchant.address.toLowerCase()) return null;
      const built = transaction as { to: Address; data: Hex };
      return chain.sendTransaction({ from: merchant, to: built.to, data: built.data });
    },
    stop: () => chain.stop(),
  };
}
export type SandboxEvm = Awaited<ReturnType<typeof startSandboxEvm>>;
