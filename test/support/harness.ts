/**
 * What the bench and the scale check (bench/) take from the tests' support, and the service's
 * entry points they start and seed a stack with: bench/ imports test/support through this module
 * only, so what the measuring harness shares with the tests is listed in one place.
 */
export { freePort } from './free-port';
export { insertWalletOrders } from './insert-wallet-orders';
export {
  randomEvmAddress,
  startLocalEvm,
  type LocalEvm,
  type LocalWallet,
} from '../../sandbox/chains/evm/local-evm';
export { startLocalSolana, type LocalSolana } from '../../sandbox/chains/solana/local-solana';
export { startSandboxProcess, type SandboxProcess } from './sandbox-process';
export { startWebhookReceiver, type ReceivedWebhook } from './webhook-receiver';
export { signedPayment, solanaPayment } from './x402-stack';
export { loadConfig } from '../../server/config';
export { openDatabase, type Database } from '../../server/db/database';
export { startEmbeddedPostgres } from '../../server/db/embedded-postgres';
export { startServer } from '../../server/main';
export { createMerchant } from '../../server/merchants/create-merchant';
