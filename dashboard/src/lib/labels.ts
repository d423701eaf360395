import type { MessageKey } from '../i18n';

/** Names of the API's enums in words (message keys), so every page says them the same way. */
export const ORDER_STATUS_KEYS: Record<string, MessageKey> = {
  PENDING: 'statusPENDING',
  CONFIRMING: 'statusCONFIRMING',
  PAID: 'statusPAID',
  UNDERPAID: 'statusUNDERPAID',
  EXPIRED: 'statusEXPIRED',
};
export const REFUND_STATUS_KEYS: Record<string, MessageKey> = {
  AWAITING_ADDRESS: 'refundAWAITING_ADDRESS',
  PENDING: 'refundPENDING',
  SUCCEEDED: 'refundSUCCEEDED',
  FAILED: 'refundFAILED',
};
export const NETWORK_NAMES: Record<string, string> = {
  SOLANA: 'Solana',
  POLYGON: 'Polygon',
  ETHEREUM: 'Ethereum',
};
export const networkName = (network: string) => NETWORK_NAMES[network] ?? network;
