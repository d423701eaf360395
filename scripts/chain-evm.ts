/**
 * Two standalone local EVM chains (Hardhat 2 nodes) for the demo and manual testing:
 *
 *   npm run chain:evm [-- --port-polygon 8545 --port-ethereum 8546 --block-time 2]
 *
 * A Polygon-like chain (id 137) and an Ethereum-like one (id 1), a 6-decimal USDT stand-in on each,
 * and one payer wallet funded on both; prints the env lines that point the service at them and runs
 * until Ctrl-C. Port 0 takes any free port. Besides a block per transaction, both chains mine an
 * empty block every --block-time seconds (0: never), so confirmations grow as on a real chain.
 * State lives in memory only: every start is a fresh pair of chains with new tokens.
 */
import { parseArgs } from 'node:util';
import { parseEther } from 'viem';
import { startLocalEvm } from '../test/support/evm/local-evm';

const FUND_ETH = parseEther('100');
const FUND_UNITS = 1_000_000_000n; // 1000 USDT at 6 decimals

const { values } = parseArgs({
  options: {
    'port-polygon': { type: 'string', default: '8545' },
    'port-ethereum': { type: 'string', default: '8546' },
    'block-time': { type: 'string', default: '2' },
  },
});

const blockTime = Number(values['block-time']);
if (!Number.isFinite(blockTime) || blockTime < 0) {
  console.error(`Invalid --block-time: ${values['block-time']}`);
  process.exit(1);
}

function portOption(name: 'port-polygon' | 'port-ethereum'): number {
  const port = Number(values[name]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Invalid --${name}: ${values[name]}`);
    process.exit(1);
  }
  return port;
}

const [polygon, ethereum] = await Promise.all([
  startLocalEvm({ chainId: 137, port: portOption('port-polygon') }),
  startLocalEvm({ chainId: 1, port: portOption('port-ethereum') }),
]);
const [usdtPolygon, usdtEthereum] = await Promise.all([polygon.deployToken(), ethereum.deployToken()]);
const payer = await polygon.newWallet({ eth: FUND_ETH, token: usdtPolygon, units: FUND_UNITS });
await ethereum.newWallet({
  eth: FUND_ETH,
  token: usdtEthereum,
  units: FUND_UNITS,
  privateKey: payer.privateKey,
});
if (blockTime > 0)
  for (const chain of [polygon, ethereum])
    await chain.rpc('evm_setIntervalMining', [Math.round(blockTime * 1000)]);

console.log(`Local EVM chains (Hardhat) running
  Polygon  (chain 137): ${polygon.url}  USDT ${usdtPolygon}
  Ethereum (chain 1):   ${ethereum.url}  USDT ${usdtEthereum}
  Payer: ${payer.address} (100 ETH and 1000 USDT on each chain)

Point the service at them:

POLYGON_RPC_URL=${polygon.url}
USDT_CONTRACT_POLYGON=${usdtPolygon}
POLYGON_CHAIN_ID=137
POLYGON_CONFIRMATIONS=2
ETHEREUM_RPC_URL=${ethereum.url}
USDT_CONTRACT_ETHEREUM=${usdtEthereum}
ETHEREUM_CHAIN_ID=1
ETHEREUM_CONFIRMATIONS=2

Payer private key, for a wallet or a script paying orders. A LOCAL TEST KEY, made up at this start:
never send real funds to it, never use it on a real network.

PAYER_PRIVATE_KEY=${payer.privateKey}

${blockTime > 0 ? `A block every ${blockTime} s and one per transaction.` : 'A block per transaction only.'} Mine blocks at once with
  curl -s ${polygon.url} -H 'content-type: application/json' \\
    -d '{"jsonrpc":"2.0","id":1,"method":"hardhat_mine","params":["0x2"]}'
Press Ctrl-C to stop (state is not kept).`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await Promise.all([polygon.stop(), ethereum.stop()]);
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
