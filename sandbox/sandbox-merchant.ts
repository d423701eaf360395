import { createClient } from '@stablepay/sdk';
import type { SandboxChainInfo } from '../contract';
import type { Models } from '../server/db/models';
import { createMerchant, MerchantInputError } from '../server/merchants/create-merchant';
import { resetMerchantPassword } from '../server/merchants/reset-merchant-password';

export const SANDBOX_EMAIL = 'sandbox@example.com';
export const SANDBOX_PASSWORD = 'sandbox-password';

/**
 * The sandbox's merchant, with a receiving wallet on each chain whose key the sandbox holds. On a
 * data directory used before it is there already: its password is set again and only the wallets it
 * lacks are added (the keys are kept beside the database, so its wallets are the sandbox's still).
 */
export async function ensureSandboxMerchant(models: Models, baseUrl: string, chains: SandboxChainInfo[]) {
  try {
    await createMerchant(models, { email: SANDBOX_EMAIL, password: SANDBOX_PASSWORD, name: 'Sandbox Shop' });
  } catch (error) {
    if (!(error instanceof MerchantInputError)) throw error;
    await resetMerchantPassword(models, { email: SANDBOX_EMAIL, password: SANDBOX_PASSWORD });
  }
  // Through the API, as the merchant would: the wallet rules (address checks, limits) are the service's.
  const merchant = createClient({ baseUrl });
  await merchant.auth.login({ email: SANDBOX_EMAIL, password: SANDBOX_PASSWORD });
  const have = (await merchant.wallets.list()).items;
  for (const chain of chains) {
    const held = have.find(
      (w) =>
        w.network === chain.network && w.public_address.toLowerCase() === chain.wallet.address.toLowerCase(),
    );
    if (!held)
      await merchant.wallets.create({
        network: chain.network,
        public_address: chain.wallet.address,
        name: `Sandbox ${chain.network}`,
      });
  }
}
