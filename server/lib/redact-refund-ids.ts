/** A hex digit, as written or percent-encoded (a route's parameter is decoded before it is matched). */
const HEX = '(?:[0-9a-f]|%3[0-9]|%6[1-6])';
const REFUND_ID = new RegExp(`(?:r|%72)(?:f|%66)(?:_|%5f)${HEX}{32}`, 'gi');

/**
 * Text with every refund id (`rf_` and 32 hex digits, also percent-encoded) replaced. A refund id
 * is the payer's credential for the refund page, where the refund's address is given: whoever reads
 * logs must not be able to give an address, so no log line carries one.
 */
export function redactRefundIds(text: string): string {
  return text.replace(REFUND_ID, 'rf_[redacted]');
}

const MANAGE_PATH = /(\/subscriptions\/manage\/)[A-Za-z0-9_%-]+/gi;
/** An invitation link's one-time token (the API route's and the dashboard page's). */
const INVITATION_PATH = /(\/(?:members\/invitations\/accept|dashboard\/invite)\/)[A-Za-z0-9_%-]+/gi;

/**
 * The same for the customers' subscription pages: the secret in `/subscriptions/manage/<secret>`
 * cancels the subscription, so no log line carries it either.
 */
export function redactSecretPaths(text: string): string {
  return redactRefundIds(text).replace(MANAGE_PATH, '$1[redacted]').replace(INVITATION_PATH, '$1[redacted]');
}
