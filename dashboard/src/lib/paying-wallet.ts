/**
 * The browser wallet shares accounts other than the payout's paying wallet: nothing is signed, as
 * the service verifies a payout's transfers from the paying wallet alone. The page says so in the
 * merchant's language (WalletPayout).
 */
export class NotThePayingWallet extends Error {
  constructor(
    readonly paying: string,
    readonly shared: readonly string[],
  ) {
    super(`Connect the paying wallet ${paying} (the wallet shares ${shared.join(', ') || 'none'})`);
  }
}
