import type { FailedTransactionMetadata } from 'litesvm';

/**
 * litesvm's transaction errors, turned into the JSON a validator's RPC returns (`meta.err`,
 * `getSignatureStatuses().err`) and the message of a failed preflight. litesvm declares its error
 * enums as `const enum`, which isolatedModules cannot read, so their names are repeated here.
 */

/** TransactionError as the RPC serializes it: a variant name, or an object with one key. */
export type RpcTxError = string | { [variant: string]: unknown };

const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
];

const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
];

/** The validator's Display text for the common variants; others show their name. */
const TRANSACTION_MESSAGES: Record<string, string> = {
  AccountInUse: 'Account in use',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  ProgramAccountNotFound: 'Attempt to load a program that does not exist',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  InvalidAccountForFee: 'This account may not be used to pay transaction fees',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  SignatureFailure: 'Transaction did not pass signature verification',
  SanitizeFailure: 'Transaction failed to sanitize accounts offsets correctly',
  AddressLookupTableNotFound: "Transaction loads an address table account that doesn't exist",
};
const INSTRUCTION_MESSAGES: Record<string, string> = {
  InvalidArgument: 'invalid program argument',
  InvalidInstructionData: 'invalid instruction data',
  InvalidAccountData: 'invalid account data for instruction',
  InsufficientFunds: 'insufficient funds for instruction',
  IncorrectProgramId: 'incorrect program id for instruction',
  MissingRequiredSignature: 'missing required signature for instruction',
  AccountAlreadyInitialized: 'instruction requires an uninitialized account',
  UninitializedAccount: 'instruction requires an initialized account',
  NotEnoughAccountKeys: 'insufficient account keys for instruction',
  IllegalOwner: 'Provided owner is not allowed',
  ComputationalBudgetExceeded: 'Computational budget exceeded',
};

type LitesvmError = ReturnType<FailedTransactionMetadata['err']>;

/** The error as JSON (`meta.err`) plus the validator's one-line message for it. */
export function describeTxError(error: LitesvmError): { err: RpcTxError; message: string } {
  if (typeof error === 'number') {
    const name = TRANSACTION_ERRORS[error] ?? `TransactionError(${error})`;
    return { err: name, message: TRANSACTION_MESSAGES[name] ?? name };
  }
  const kind = error.constructor.name;
  if ('err' in error && typeof error.err === 'function') {
    const inner = error.err();
    let ixErr: RpcTxError;
    let text: string;
    if (typeof inner === 'number') {
      const name = INSTRUCTION_ERRORS[inner] ?? `InstructionError(${inner})`;
      ixErr = name;
      text = INSTRUCTION_MESSAGES[name] ?? name;
    } else if ('code' in inner) {
      ixErr = { Custom: inner.code };
      text = `custom program error: 0x${inner.code.toString(16)}`;
    } else {
      ixErr = { BorshIoError: inner.msg };
      text = `Failed to serialize or deserialize account data: ${inner.msg}`;
    }
    return {
      err: { InstructionError: [error.index, ixErr] },
      message: `Error processing Instruction ${error.index}: ${text}`,
    };
  }
  if ('accountIndex' in error) {
    const variant = kind.includes('Restricted')
      ? 'ProgramExecutionTemporarilyRestricted'
      : 'InsufficientFundsForRent';
    return {
      err: { [variant]: { account_index: error.accountIndex } },
      message:
        variant === 'InsufficientFundsForRent'
          ? `Transaction results in an account (${error.accountIndex}) with insufficient funds for rent`
          : `Execution of the program referenced by account at index ${error.accountIndex} is temporarily restricted.`,
    };
  }
  return {
    err: { DuplicateInstruction: error.index },
    message: `Transaction contains a duplicate instruction (${error.index}) that is not allowed`,
  };
}

/**
 * Whether a validator would include a transaction failing this way in a block (fee charged, `err`
 * recorded): execution errors land, while load-time errors (bad blockhash, no fee funds, bad
 * signature, already processed) are dropped before a leader ever records them.
 */
export function landsOnChain(error: LitesvmError): boolean {
  return typeof error !== 'number';
}
