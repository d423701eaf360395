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
  return tokenProgramAccount(data, 2039280, opts.slot);
}

/** A token-program-owned account holding `data`, as getAccountInfo answers (base64). */
function tokenProgramAccount(data: Buffer, lamports: number, slot = 1) {
  return {
    context: { slot },
    value: {
      data: [data.toString('base64'), 'base64'],
      executable: false,
      lamports,
      owner: TOKEN_PROGRAM_ID.toBase58(),
      rentEpoch: 0,
      space: data.length,
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
  return tokenProgramAccount(data, 1461600, opts.slot);
}
