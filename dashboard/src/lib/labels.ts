import type { RefundStatus } from '../../../contract';
import { EVM_NETWORK_TABLE, EVM_NETWORKS } from '../../../contract/network-table';
import type { MessageKey } from '../i18n';

/** Names of the API's enums in words (message keys), so every page says them the same way. */
export const ORDER_STATUS_KEYS: Record<string, MessageKey> = {
  PENDING: 'statusPENDING',
  CONFIRMING: 'statusCONFIRMING',
  PAID: 'statusPAID',
  UNDERPAID: 'statusUNDERPAID',
  EXPIRED: 'statusEXPIRED',
};
export const REFUND_STATUS_KEYS: Record<RefundStatus, MessageKey> = {
  AWAITING_ADDRESS: 'refundAWAITING_ADDRESS',
  AWAITING_APPROVAL: 'refundAWAITING_APPROVAL',
  PENDING: 'refundPENDING',
  SUCCEEDED: 'refundSUCCEEDED',
  FAILED: 'refundFAILED',
};
/** Networks in words, from the contract's table (also those the service has turned off). */
export const NETWORK_NAMES: Record<string, string> = {
  SOLANA: 'Solana',
  ...Object.fromEntries(EVM_NETWORKS.map((n) => [n, EVM_NETWORK_TABLE[n].name])),
};
export const networkName = (network: string) => NETWORK_NAMES[network] ?? network;
