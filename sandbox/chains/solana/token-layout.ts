import { base58 } from './keys';

/**
 * SPL Token account and mint layouts, read straight from account bytes, and the `uiTokenAmount`
 * shapes a validator's RPC derives from them.
 */

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const isTokenProgram = (owner: string) => owner === TOKEN_PROGRAM || owner === TOKEN_2022_PROGRAM;

const ACCOUNT_SIZE = 165;
const MINT_SIZE = 82;
/** Token-2022 accounts with extensions carry their type right after the base account size. */
const ACCOUNT_TYPE_MINT = 1;
const ACCOUNT_TYPE_ACCOUNT = 2;

const key = (data: Uint8Array, offset: number) => base58(data.subarray(offset, offset + 32));
const u64 = (data: Uint8Array, offset: number) =>
  new DataView(data.buffer, data.byteOffset + offset, 8).getBigUint64(0, true);
const u32 = (data: Uint8Array, offset: number) =>
  new DataView(data.buffer, data.byteOffset + offset, 4).getUint32(0, true);

export type TokenAccountState = {
  mint: string;
  owner: string;
  amount: bigint;
  delegate: string | null;
  state: 'initialized' | 'frozen';
  isNative: boolean;
  delegatedAmount: bigint;
  closeAuthority: string | null;
};

export type MintState = {
  mintAuthority: string | null;
  supply: bigint;
  decimals: number;
  freezeAuthority: string | null;
};

/** An initialized token account's fields, or null for anything else. */
export function decodeTokenAccount(programOwner: string, data: Uint8Array): TokenAccountState | null {
  if (!isTokenProgram(programOwner)) return null;
  if (
    data.length !== ACCOUNT_SIZE &&
    !(data.length > ACCOUNT_SIZE && data[ACCOUNT_SIZE] === ACCOUNT_TYPE_ACCOUNT)
  )
    return null;
  const state = data[108];
  if (state !== 1 && state !== 2) return null;
  return {
    mint: key(data, 0),
    owner: key(data, 32),
    amount: u64(data, 64),
    delegate: u32(data, 72) === 1 ? key(data, 76) : null,
    state: state === 2 ? 'frozen' : 'initialized',
    isNative: u32(data, 109) === 1,
    delegatedAmount: u64(data, 121),
    closeAuthority: u32(data, 129) === 1 ? key(data, 133) : null,
  };
}

/** An initialized mint's fields, or null for anything else. */
export function decodeMint(programOwner: string, data: Uint8Array): MintState | null {
  if (!isTokenProgram(programOwner)) return null;
  if (data.length !== MINT_SIZE && !(data.length > ACCOUNT_SIZE && data[ACCOUNT_SIZE] === ACCOUNT_TYPE_MINT))
    return null;
  if (data[45] !== 1) return null;
  return {
    mintAuthority: u32(data, 0) === 1 ? key(data, 4) : null,
    supply: u64(data, 36),
    decimals: data[44]!,
    freezeAuthority: u32(data, 46) === 1 ? key(data, 50) : null,
  };
}

export type UiTokenAmount = {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
};

/** `amount` as a decimal string with trailing zeros trimmed, as the RPC's `uiAmountString`. */
export function uiAmountString(amount: bigint, decimals: number): string {
  const digits = amount.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * The RPC's token amount. Transaction metadata (`zeroAsNull`) stores a zero `uiAmount` as null,
 * as mainnet's pre/postTokenBalances show; account queries report 0.
 */
export function uiTokenAmount(amount: bigint, decimals: number, zeroAsNull = false): UiTokenAmount {
  const text = uiAmountString(amount, decimals);
  return {
    amount: amount.toString(),
    decimals,
    uiAmount: zeroAsNull && amount === 0n ? null : Number(text),
    uiAmountString: text,
  };
}

/**
 * `jsonParsed` account data for token accounts and mints (what getParsedAccountInfo and
 * getParsedTokenAccountsByOwner return); null when the account is neither.
 */
export function parsedTokenData(
  programOwner: string,
  data: Uint8Array,
  decimalsOf: (mint: string) => number | null,
): { program: string; parsed: unknown; space: number } | null {
  const program = programOwner === TOKEN_2022_PROGRAM ? 'spl-token-2022' : 'spl-token';
  const account = decodeTokenAccount(programOwner, data);
  if (account) {
    const decimals = decimalsOf(account.mint);
    if (decimals === null) return null;
    const info: Record<string, unknown> = {
      isNative: account.isNative,
      mint: account.mint,
      owner: account.owner,
      state: account.state,
      tokenAmount: uiTokenAmount(account.amount, decimals),
    };
    if (account.delegate) {
      info.delegate = account.delegate;
      info.delegatedAmount = uiTokenAmount(account.delegatedAmount, decimals);
    }
    if (account.closeAuthority) info.closeAuthority = account.closeAuthority;
    return { program, parsed: { info, type: 'account' }, space: data.length };
  }
  const mint = decodeMint(programOwner, data);
  if (mint) {
    return {
      program,
      parsed: {
        info: {
          decimals: mint.decimals,
          freezeAuthority: mint.freezeAuthority,
          isInitialized: true,
          mintAuthority: mint.mintAuthority,
          supply: mint.supply.toString(),
        },
        type: 'mint',
      },
      space: data.length,
    };
  }
  return null;
}
