import type { SettleResponse } from '@x402/core/types';
import type { MerchantRow } from '../db/caches';
import { ChainUnavailableError, describeRpcError } from '../chains/chain-errors';
import type { Deps } from '../deps';
import type { Caller } from '../events/actor';
import { newReference } from '../orders/new-reference';
import { checkPayment, type CheckedPayment, type X402Request } from './check-payment';
import type { SendWatch } from './evm-signer';
import { recordSettlement } from './record-settlement';
import {
  claimSettlement,
  findSettlement,
  markSigned,
  releaseSettlement,
  updateSettlement,
  type SettlementRow,
} from './settlement-rows';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How often a settle waits to learn what became of the same authorization's settlement under way. */
const IN_PROGRESS_POLL_MS = 100;

type Input = {
  merchant: MerchantRow;
  /** Who is calling: an API key (with its maker). */
  by: Caller;
  body: X402Request;
};

/**
 * POST /x402/settle: this account's rules, then the authorization is claimed in PostgreSQL
 * (x402_settlements, unique by its key) before anything is sent, so it settles once however often,
 * concurrently, or on however many instances it is presented; then @x402/evm verifies and sends
 * it. Presented again: `already_settled` with the first transaction (a settlement still under way
 * is waited for). Refused before anything was sent (no gas, gas price too high, the authorization
 * invalid): the claim is released. Sent: an order of kind `x402` records it (recordSettlement),
 * also when the receipt did not come in time (`settlement_pending`: the verifier follows it up);
 * the claim holds what that takes, so a crash before it is followed up (followUpSettlements).
 */
export async function settlePayment(deps: Deps, input: Input): Promise<SettleResponse> {
  const checked = await checkPayment(deps, input.merchant.id, input.body);
  if (!checked.ok)
    return {
      success: false,
      errorReason: checked.reason,
      errorMessage: checked.message,
      transaction: '',
      network: checked.network as SettleResponse['network'],
      ...(checked.payer ? { payer: checked.payer } : {}),
    };
  const deadline = Date.now() + deps.config.x402.settleTimeoutMs + deps.config.RPC_TIMEOUT_MS;
  for (;;) {
    const id = await claimSettlement(deps, {
      key: checked.settlementKey,
      merchantId: input.merchant.id,
      network: checked.caip2,
      asset: checked.asset,
      payTo: checked.payTo,
      payer: checked.payer,
      amountUnits: checked.amountUnits,
      orderReference: newReference(),
      walletId: checked.walletId,
      resource: checked.resource,
      apiKeyId: input.by.apiKey?.id ?? null,
      memberId: input.by.member.id,
      validBefore: checked.validBefore,
    });
    if (id) return settleClaimed(deps, input, checked, id);
    const row = await findSettlement(deps, checked.settlementKey);
    if (row && row.status !== 'sending') return alreadySettled(checked, row);
    if (Date.now() > deadline)
      return {
        success: false,
        errorReason: 'settlement_in_progress',
        errorMessage: 'Another settlement of this authorization is still under way: ask again',
        transaction: '',
        network: checked.caip2,
        payer: checked.payer,
      };
    await sleep(IN_PROGRESS_POLL_MS);
  }
}

const alreadySettled = (checked: CheckedPayment, row: SettlementRow): SettleResponse => ({
  success: false,
  errorReason: 'already_settled',
  errorMessage: `This authorization was already presented for settlement (${row.status}): its transaction is ${row.transaction ?? 'unknown'}`,
  transaction: row.transaction ?? '',
  network: checked.caip2,
  payer: row.payer ?? checked.payer,
});

async function settleClaimed(
  deps: Deps,
  input: Input,
  checked: CheckedPayment,
  id: string,
): Promise<SettleResponse> {
  const watch: SendWatch = {
    onSigned: (hash) => markSigned(deps, id, hash),
  };
  let result: SettleResponse;
  try {
    result = await checked.settler(watch).settle(checked.payload, checked.requirements);
  } catch (error) {
    // The chain could not be asked (verification's reads): nothing was sent unless `sent` says so.
    if (watch.sent) await updateSettlement(deps, id, { status: 'pending', errorReason: 'settle_error' });
    else await releaseSettlement(deps, id);
    throw new ChainUnavailableError(
      `${checked.network} RPC unavailable: x402 settle failed (${describeRpcError(error)})`,
    );
  }
  if (!watch.sent) {
    await releaseSettlement(deps, id);
    return {
      ...result,
      success: false,
      transaction: '',
      errorReason: watch.refused?.reason ?? result.errorReason,
      ...(watch.refused || result.errorMessage
        ? { errorMessage: (watch.refused?.message ?? result.errorMessage)!.slice(0, 1000) }
        : {}),
    };
  }
  const tx = watch.sent;
  const pending = !result.success && result.errorReason === 'settlement_pending';
  if (!result.success && !pending) {
    // Reverted on chain: the authorization's nonce is unused, it may be presented again.
    await updateSettlement(deps, id, { status: 'failed', transaction: tx, errorReason: result.errorReason });
    return result;
  }
  await updateSettlement(deps, id, { status: pending ? 'pending' : 'settled', transaction: tx });
  try {
    await recordSettlement(deps, id, { merchant: input.merchant, by: input.by });
  } catch (error) {
    // The money moved: the answer stays the chain's. The settlement row keeps what writing its
    // order takes, and followUpSettlements writes it.
    deps.logger.error({ err: error, txId: tx }, 'x402 settlement sent but its order was not recorded');
  }
  return { ...result, transaction: tx };
}
