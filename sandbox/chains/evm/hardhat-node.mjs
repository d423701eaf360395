/**
 * One Hardhat 2 network (EDR) behind Hardhat's own JSON-RPC server, for local-evm.ts:
 *
 *   node hardhat-node.mjs <chainId>
 *
 * Prints {"port":N} once it listens on a free port of 127.0.0.1. Built from Hardhat's internals
 * rather than `hardhat node`: no config file (the CLI refuses one outside the project root), no
 * update/banner/telemetry requests, and ready in ~0.2 s instead of ~1.1 s. Plain JavaScript so
 * that Node starts it without a TypeScript loader. Exits when its parent closes stdin, so a test
 * process that dies (even by SIGKILL) leaves no node behind.
 */
import { defaultHardhatNetworkParams as defaults } from 'hardhat/internal/core/config/default-config.js';
import { JsonRpcServer } from 'hardhat/internal/hardhat-network/jsonrpc/server.js';
import { createHardhatNetworkProvider } from 'hardhat/internal/hardhat-network/provider/provider.js';

async function main() {
  const chainId = Number(process.argv[2]);
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new Error(`Invalid chain id: ${process.argv[2]}`);
  const provider = await createHardhatNetworkProvider(
    {
      hardfork: defaults.hardfork,
      chainId,
      networkId: chainId,
      blockGasLimit: defaults.blockGasLimit,
      minGasPrice: defaults.minGasPrice,
      automine: true,
      intervalMining: 0,
      mempoolOrder: defaults.mining.mempool.order,
      chains: defaults.chains,
      // No genesis accounts: the helpers fund fresh keys with hardhat_setBalance.
      genesisAccounts: [],
      allowUnlimitedContractSize: false,
      // As on a real node, a reverted transaction is mined and its hash returned, not an error.
      throwOnTransactionFailures: false,
      throwOnCallFailures: true,
      allowBlocksWithSameTimestamp: false,
      enableTransientStorage: false,
      enableRip7212: false,
    },
    { enabled: false },
  );
  const server = new JsonRpcServer({ hostname: '127.0.0.1', port: 0, provider });
  // Node's default keep-alive of 5 s closes an idle connection just as a client (undici keeps one
  // 4 s) may send on it: on a loaded machine the two timers cross and a request fails with "other
  // side closed" (seen in CI). Clients then always give a connection up long before the node does.
  server._httpServer.keepAliveTimeout = 60_000;
  server._httpServer.headersTimeout = 61_000;
  const { port } = await server.listen();
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}

process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
main().catch((error) => {
  process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
