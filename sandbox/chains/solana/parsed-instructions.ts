import { getBase58Decoder } from '@solana/kit';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM, uiTokenAmount } from './token-layout';

/**
 * `jsonParsed` instructions for the programs a payment touches (System, SPL Token, Associated Token
 * Account, Memo), in the shapes a validator's RPC produces. Anything else, or anything that does
 * not decode, is returned "partially decoded" ({programId, accounts, data}) exactly as mainnet does
 * for programs it has no parser for (ComputeBudget included).
 */

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const MEMO_PROGRAMS = new Set([
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]);

const base58 = getBase58Decoder();
const view = (data: Uint8Array) => new DataView(data.buffer, data.byteOffset, data.byteLength);

export type ParsedOrRawInstruction =
  | { program: string; programId: string; parsed: unknown; stackHeight: number | null }
  | { programId: string; accounts: string[]; data: string; stackHeight: number | null };

type Parsed = { program: string; parsed: unknown } | null;

export function parseInstruction(
  programId: string,
  accounts: string[],
  data: Uint8Array,
  stackHeight: number | null,
): ParsedOrRawInstruction {
  let parsed: Parsed = null;
  try {
    if (programId === SYSTEM_PROGRAM) parsed = parseSystem(accounts, data);
    else if (programId === TOKEN_PROGRAM || programId === TOKEN_2022_PROGRAM)
      parsed = parseToken(accounts, data, programId === TOKEN_2022_PROGRAM);
    else if (programId === ATA_PROGRAM) parsed = parseAta(accounts, data);
    else if (MEMO_PROGRAMS.has(programId))
      parsed = { program: 'spl-memo', parsed: new TextDecoder('utf-8', { fatal: true }).decode(data) };
  } catch {
    parsed = null; // short data or invalid UTF-8: partially decoded, like the validator
  }
  if (parsed) return { ...parsed, programId, stackHeight };
  return { programId, accounts, data: base58.decode(data), stackHeight };
}

function parseSystem(accounts: string[], data: Uint8Array): Parsed {
  const dv = view(data);
  const tag = dv.getUint32(0, true);
  if (tag === 0 && accounts.length >= 2)
    return {
      program: 'system',
      parsed: {
        type: 'createAccount',
        info: {
          source: accounts[0],
          newAccount: accounts[1],
          lamports: Number(dv.getBigUint64(4, true)),
          space: Number(dv.getBigUint64(12, true)),
          owner: base58.decode(data.subarray(20, 52)),
        },
      },
    };
  if (tag === 2 && accounts.length >= 2)
    return {
      program: 'system',
      parsed: {
        type: 'transfer',
        info: { source: accounts[0], destination: accounts[1], lamports: Number(dv.getBigUint64(4, true)) },
      },
    };
  return null;
}

/** Single authority, or multisig authority + signers (extra keys, e.g. Solana Pay references). */
function authority(accounts: string[], index: number, name: string): Record<string, unknown> | null {
  if (accounts.length <= index) return null;
  if (accounts.length === index + 1) return { [name]: accounts[index] };
  const multisigName = `multisig${name[0]!.toUpperCase()}${name.slice(1)}`;
  return { [multisigName]: accounts[index], signers: accounts.slice(index + 1) };
}

function parseToken(accounts: string[], data: Uint8Array, is2022: boolean): Parsed {
  const program = is2022 ? 'spl-token-2022' : 'spl-token';
  const dv = view(data);
  const tag = data[0];
  const amount = () => dv.getBigUint64(1, true);
  const result = (type: string, info: Record<string, unknown> | null) =>
    info ? { program, parsed: { type, info } } : null;
  const withAuthority = (info: Record<string, unknown>, index: number, name: string) => {
    const auth = authority(accounts, index, name);
    return auth ? { ...info, ...auth } : null;
  };
  switch (tag) {
    case 3: // Transfer
      return result(
        'transfer',
        withAuthority(
          { source: accounts[0], destination: accounts[1], amount: amount().toString() },
          2,
          'authority',
        ),
      );
    case 12: // TransferChecked
      return result(
        'transferChecked',
        withAuthority(
          {
            source: accounts[0],
            mint: accounts[1],
            destination: accounts[2],
            tokenAmount: uiTokenAmount(amount(), data[9]!),
          },
          3,
          'authority',
        ),
      );
    case 7: // MintTo
      return result(
        'mintTo',
        withAuthority(
          { mint: accounts[0], account: accounts[1], amount: amount().toString() },
          2,
          'mintAuthority',
        ),
      );
    case 14: // MintToChecked
      return result(
        'mintToChecked',
        withAuthority(
          { mint: accounts[0], account: accounts[1], tokenAmount: uiTokenAmount(amount(), data[9]!) },
          2,
          'mintAuthority',
        ),
      );
    case 9: // CloseAccount
      return result(
        'closeAccount',
        withAuthority({ account: accounts[0], destination: accounts[1] }, 2, 'owner'),
      );
    case 18: // InitializeAccount3
      return result('initializeAccount3', {
        account: accounts[0],
        mint: accounts[1],
        owner: base58.decode(data.subarray(1, 33)),
      });
    case 20: {
      // InitializeMint2: decimals, mint authority, COption<freeze authority>
      const info: Record<string, unknown> = {
        mint: accounts[0],
        decimals: data[1],
        mintAuthority: base58.decode(data.subarray(2, 34)),
      };
      if (data[34] === 1) info.freezeAuthority = base58.decode(data.subarray(35, 67));
      return result('initializeMint2', info);
    }
    case 21: // GetAccountDataSize
      return result('getAccountDataSize', { mint: accounts[0] });
    case 22: // InitializeImmutableOwner
      return result('initializeImmutableOwner', { account: accounts[0] });
    default:
      return null;
  }
}

function parseAta(accounts: string[], data: Uint8Array): Parsed {
  const type = data.length === 0 || data[0] === 0 ? 'create' : data[0] === 1 ? 'createIdempotent' : null;
  if (!type || accounts.length < 6) return null;
  return {
    program: 'spl-associated-token-account',
    parsed: {
      type,
      info: {
        source: accounts[0],
        account: accounts[1],
        wallet: accounts[2],
        mint: accounts[3],
        systemProgram: accounts[4],
        tokenProgram: accounts[5],
      },
    },
  };
}

/** The `memo` column of getSignaturesForAddress: "[len] text" per memo instruction, "; "-joined. */
export function formatMemos(memos: Uint8Array[]): string | null {
  if (memos.length === 0) return null;
  return memos
    .map((data) => {
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(data);
      } catch {
        text = '(unparseable)';
      }
      return `[${data.length}] ${text}`;
    })
    .join('; ');
}
