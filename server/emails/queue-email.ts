import type { Transaction } from 'sequelize';
import type { EmailKind, Locale } from '../../contract';
import { wakeJobSql } from '../db/wake-up';
import type { Deps } from '../deps';
import { randomBytesPooled } from '../lib/random-pool';

/** An e-mail to an order's customer, or an invitation to join an account, rendered. */
export type EmailToQueue = {
  /** The order's row id (orders.id); null for an invitation. */
  orderId: string | null;
  merchantId: string;
  kind: EmailKind | 'invitation';
  to: string;
  language: Locale;
  subject: string;
  text: string;
  html: string;
};

export const newEmailId = () => `em_${randomBytesPooled(16).toString('hex')}`;

/**
 * Puts an e-mail in the outbox (email_deliveries) inside the caller's transaction, so it is sent if
 * and only if what it tells is committed, and wakes the send-emails job on commit. Never sends: no
 * request waits on a mail server. Without SMTP_URL nothing is queued (null): the webhook is the
 * merchant's cue. Returns the e-mail's id.
 */
export async function queueEmail(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  transaction: Transaction | null,
  email: EmailToQueue,
): Promise<string | null> {
  if (!deps.config.mail) return null;
  const id = newEmailId();
  const now = deps.clock();
  await deps.db.sequelize.query(
    `WITH queued AS (
       INSERT INTO email_deliveries (id, order_id, merchant_id, kind, to_address, language, subject, text, html,
                                     next_attempt_at, created_at, updated_at)
       VALUES ($id, $orderId, $merchantId, $kind, $to, $language, $subject, $text, $html, $now, $now, $now)
       RETURNING 1)
     SELECT ${wakeJobSql('send-emails')} FROM queued`,
    { bind: { ...email, id, now }, transaction: transaction ?? undefined },
  );
  return id;
}
