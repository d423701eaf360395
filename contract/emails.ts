import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ZDateTime, merchantAuth } from './common';
import { EMAIL_MAX } from './locales';
import { ZReferenceParams, orderErrors, orderList } from './shapes';

const c = initContract();

/** What an e-mail to the customer is about: a new period's order to pay, its reminder, its receipt. */
export const EMAIL_KINDS = ['order', 'reminder', 'receipt'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/**
 * PENDING (not tried yet) -> SENT; FAILED: the last attempt failed and another is scheduled;
 * GAVE_UP: every attempt failed (as many as a webhook gets).
 */
export const EMAIL_STATUSES = ['PENDING', 'SENT', 'FAILED', 'GAVE_UP'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** Longest subject and error an e-mail record keeps. */
export const EMAIL_SUBJECT_MAX = 300;
export const EMAIL_ERROR_MAX = 1000;

export const ZEmailDelivery = z
  .object({
    id: z
      .string()
      .max(35)
      .regex(/^em_[0-9a-f]{32}$/)
      .describe('em_…'),
    kind: z
      .enum(EMAIL_KINDS)
      .describe("order (a subscription period's order to pay), reminder (it expires soon), receipt (paid)"),
    to: z.string().max(EMAIL_MAX).describe("The customer's address"),
    subject: z.string().max(EMAIL_SUBJECT_MAX),
    status: z
      .enum(EMAIL_STATUSES)
      .describe(
        'PENDING (not tried yet) -> SENT; FAILED (the last attempt failed, another is scheduled); GAVE_UP (every attempt failed)',
      ),
    attempt: z.number().int().min(0).max(1000).describe('Attempts made so far'),
    error: z
      .string()
      .max(EMAIL_ERROR_MAX)
      .nullable()
      .describe("Why the last attempt failed (the mail server's answer), null once sent"),
    createdAt: ZDateTime,
  })
  .describe('An e-mail to the customer about the order, and how sending it went');
export type EmailDelivery = z.infer<typeof ZEmailDelivery>;

export const emailsContract = c.router(
  {
    emailDeliveries: {
      method: 'GET',
      path: '/orders/:reference/email-deliveries',
      summary: "The e-mails to the order's customer, oldest first",
      description:
        "Every e-mail queued for the order's `customerEmail` (its receipt, and a subscription's order and reminder), with how sending it went: sent through the server's SMTP_URL, retried like webhooks. Empty when the server sends no e-mail (no SMTP_URL). 404 for an unknown reference or another merchant's order.",
      metadata: merchantAuth('orders:read', 'orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: orderList(ZEmailDelivery), ...orderErrors },
    },
  },
  { strictStatusCodes: true },
);
