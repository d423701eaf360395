import {
  ACCOUNT_SIZE,
  AccountLayout,
  AccountState,
  MINT_SIZE,
  MintLayout,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';

/**
 * The `getAccountInfo` result of an SPL token account holding `amount`, exactly as an RPC node
 * returns it (base64 data, owned by the token program): for hand-written JSON-RPC test servers.
 */
export function tokenAccountInfoResult(opts: {
  mint?: string;
  owner?: string;
  amount: bigint;
  slot?: number;
}) {
  const data = Buffer.alloc(ACCOUNT_SIZE);
  AccountLayout.encode(
    {
      mint: new PublicKey(opts.mint ?? PublicKey.default),
      owner: new PublicKey(opts.owner ?? PublicKey.default),
      amount: opts.amount,
      delegateOption: 0,
      delegate: PublicKey.default,
      state: AccountState.Initialized,
      isNativeOption: 0,
      isNative: 0n,
      delegatedAmount: 0n,
      closeAuthorityOption: 0,
      closeAuthority: PublicKey.default,
    },
    data,
  );
  return {
    context: { slot: opts.slot ?? 1 },
    value: {
      data: [data.toString('base64'), 'base64'],
      executable: false,
      lamports: 2039280,
      owner: TOKEN_PROGRAM_ID.toBase58(),
      rentEpoch: 0,
      space: ACCOUNT_SIZE,
    },
  };
}

/** The `getAccountInfo` result of an SPL mint of `decimals` (how a node answers for USDT's mint). */
export function mintAccountInfoResult(opts: { decimals: number; slot?: number }) {
  const data = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    {
      mintAuthorityOption: 0,
      mintAuthority: PublicKey.default,
      supply: 0n,
      decimals: opts.decimals,
      isInitialized: true,
      freezeAuthorityOption: 0,
      freezeAuthority: PublicKey.default,
    },
    data,
  );
  return {
    context: { slot: opts.slot ?? 1 },
    value: {
      data: [data.toString('base64'), 'base64'],
      executable: false,
      lamports: 1461600,
      owner: TOKEN_PROGRAM_ID.toBase58(),
      rentEpoch: 0,
      space: MINT_SIZE,
    },
  };
}
