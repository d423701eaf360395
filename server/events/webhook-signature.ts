import { createHmac } from 'node:crypto';

/**
 * `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, one v1 per active secret (two while a rotated
 * secret is in its 24 h grace period), the scheme Stripe's receivers already know.
 */
export function signatureHeader(body: string, secrets: string[], timestamp: number): string {
  const signatures = secrets.map(
    (secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`,
  );
  return [`t=${timestamp}`, ...signatures].join(',');
}
