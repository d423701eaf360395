/**
 * Standalone local EVM chains (Hardhat 2 nodes) for the demo and manual testing:
 *
 *   npm run chain:evm [-- --network POLYGON,ETHEREUM --port 8545 --block-time 2]
 *
 * One chain per network (any of contract/network-table.ts: POLYGON, ETHEREUM, BASE, ARBITRUM,
 * OPTIMISM, BSC, AVALANCHE), each with the network's mainnet chain id and a USDT stand-in of the
 * real token's decimals (18 on BSC), on ports --port, --port + 1, ... (0: any free port), and one
 * payer wallet funded on all of them; prints the env lines that point the service at them and runs
 * until Ctrl-C. Besides a block per transaction, each chain mines an empty block every --block-time
 * seconds (0: never), so confirmations grow as on a real chain. State lives in memory only.
 */
import { parseArgs } from 'node:util';
import { parseEther } from 'viem';
import { EVM_NETWORK_TABLE, EVM_NETWORKS, type EvmNetwork } from '../contract';
import { parseUnits } from '../contract/decimal';
import { startLocalEvm } from '../sandbox/chains/evm/local-evm';

const FUND_ETH = parseEther('100');

const { values } = parseArgs({
  options: {
    network: { type: 'string', default: 'POLYGON,ETHEREUM' },
    port: { type: 'string', default: '8545' },
    'block-time': { type: 'string', default: '2' },
  },
});

const blockTime = Number(values['block-time']);
if (!Number.isFinite(blockTime) || blockTime < 0) {
  console.error(`Invalid --block-time: ${values['block-time']}`);
  process.exit(1);
}
const firstPort = Number(values.port);
if (!Number.isInteger(firstPort) || firstPort < 0 || firstPort > 65535) {
  console.error(`Invalid --port: ${values.port}`);
  process.exit(1);
}
const networks = values.network.split(',').map((n) => n.trim().toUpperCase()) as EvmNetwork[];
for (const network of networks)
  if (!EVM_NETWORKS.includes(network)) {
    console.error(`Invalid --network: ${network} (one of ${EVM_NETWORKS.join(', ')})`);
    process.exit(1);
  }

const chains = await Promise.all(
  networks.map(async (network, i) => {
    const { chainId, tokens } = EVM_NETWORK_TABLE[network];
    const evm = await startLocalEvm({ chainId, port: firstPort === 0 ? 0 : firstPort + i });
    const decimals = tokens.USDT.decimals;
    const usdt = await evm.deployToken({ decimals });
    return { network, chainId, evm, usdt, decimals };
  }),
);
const [first, ...rest] = chains;
const payer = await first!.evm.newWallet({
  eth: FUND_ETH,
  token: first!.usdt,
  units: parseUnits('1000', first!.decimals),
});
for (const c of rest)
  await c.evm.newWallet({
    eth: FUND_ETH,
    token: c.usdt,
    units: parseUnits('1000', c.decimals),
    privateKey: payer.privateKey,
  });
if (blockTime > 0)
  for (const c of chains) await c.evm.rpc('evm_setIntervalMining', [Math.round(blockTime * 1000)]);

console.log(`Local EVM chains (Hardhat) running
${chains.map((c) => `  ${c.network} (chain ${c.chainId}): ${c.evm.url}  USDT ${c.usdt} (${c.decimals} decimals)`).join('\n')}
  Payer: ${payer.address} (100 ETH and 1000 USDT on each chain)

Point the service at them:

${chains
  .map((c) =>
    [
      `${c.network}_RPC_URL=${c.evm.url}`,
      `USDT_CONTRACT_${c.network}=${c.usdt}`,
      `USDC_CONTRACT_${c.network}=none`,
      `${c.network}_CHAIN_ID=${c.chainId}`,
      `${c.network}_CONFIRMATIONS=2`,
    ].join('\n'),
  )
  .join('\n')}

Payer private key, for a wallet or a script paying orders. A LOCAL TEST KEY, made up at this start:
never send real funds to it, never use it on a real network.

PAYER_PRIVATE_KEY=${payer.privateKey}

${blockTime > 0 ? `A block every ${blockTime} s and one per transaction.` : 'A block per transaction only.'} Mine blocks at once with
  curl -s ${first!.evm.url} -H 'content-type: application/json' \\
    -d '{"jsonrpc":"2.0","id":1,"method":"hardhat_mine","params":["0x2"]}'
Press Ctrl-C to stop (state is not kept).`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await Promise.all(chains.map((c) => c.evm.stop()));
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
