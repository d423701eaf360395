import { Keypair, PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { parseUnits } from '../../contract/decimal';
import { startLocalSolana, type LocalSolana } from '../../sandbox/chains/solana/local-solana';
import { startSmtpServer, type ReceivedMail, type SmtpServer } from '../support/smtp-server';
import { sleep, startPaymentHarness, usePaymentStack } from '../support/payment-harness';
import type { PaidOrder, PaymentHarness } from '../support/payment-harness';
import { addMember } from '../support/members';
import { expectErrorBody, expectFieldError, newMerchant } from '../support/test-server';

/**
 * E-mail to customers (issue 30), on the real database, the local Solana chain and a real SMTP
 * server: an order with `customerEmail` that is paid gets its receipt, sent by the send-emails job
 * (run by hand here, like the payment jobs), retried on the webhooks' schedule, recorded and read
 * back at GET /orders/{reference}/email-deliveries. A server without SMTP_URL queues nothing.
 */

const RETRY_BASE_MS = 300;
const MAX_ATTEMPTS = 3;

let chain: LocalSolana;
let smtp: SmtpServer;
let mint: PublicKey;
/** The service with SMTP_URL, and one on the same chain without it. */
let h: PaymentHarness;
let unmailed: PaymentHarness;

usePaymentStack(
  async () => {
    chain = await startLocalSolana();
    mint = await chain.createMint();
    smtp = await startSmtpServer();
    const env = {
      SOLANA_RPC_URL: chain.url,
      USDT_MINT_SOLANA: mint.toBase58(),
      SOLANA_COMMITMENT: 'finalized',
    };
    h = await startPaymentHarness({
      ...env,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Shop payments <pay@example.test>',
      SMTP_TIMEOUT_MS: '5000',
      WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
      WEBHOOK_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    });
    unmailed = await startPaymentHarness(env);
  },
  () => [h, unmailed, smtp, chain],
);

type EmailRecord = {
  id: string;
  kind: string;
  to: string;
  subject: string;
  status: string;
  attempt: number;
  error: string | null;
  createdAt: string;
};
type Order = PaidOrder & {
  checkoutUrl: string;
  customerEmail: string | null;
  customerLanguage: string | null;
};
type Shop = Awaited<ReturnType<PaymentHarness['newShop']>>;

const newShop = (harness: PaymentHarness) =>
  harness.newShop('SOLANA', Keypair.generate().publicKey.toBase58());

/** A paid order of `shop`'s: created with `extra`, paid by a wallet transfer, settled by the jobs. */
async function paidOrder(harness: PaymentHarness, shop: Shop, extra: Record<string, unknown>) {
  const order = (await harness.createOrder(shop, { amount: '12.5', ...extra })) as Order;
  const payer = await chain.newPayer({ mint });
  await chain.transfer({
    payer,
    recipientOwner: new PublicKey(shop.wallet),
    mint,
    amountUnits: parseUnits(order.amount, 6),
    reference: new PublicKey(order.reference),
  });
  const paid = (await harness.settle(shop, order.reference, 'PAID')) as Order;
  return { order, paid };
}

async function emailsOf(harness: PaymentHarness, shop: Shop, reference: string): Promise<EmailRecord[]> {
  const res = await harness.server.api('GET', `/orders/${reference}/email-deliveries`, { token: shop.token });
  expect(res.status, res.text).toBe(200);
  return res.body.items as EmailRecord[];
}

const sendEmails = () => h.server.jobs.runNow('send-emails');
const mailTo = (address: string) => (mail: ReceivedMail) => mail.to.includes(address);

describe('e-mail to customers', () => {
  it("mails a paid order's receipt in the customer's language, recorded and readable", async () => {
    const shop = await newShop(h);
    const to = `cliente-${Date.now()}@example.com`;
    const { order, paid } = await paidOrder(h, shop, {
      customerEmail: to,
      customerLanguage: 'pt-BR',
      description: 'Pedido <script>alert(1)</script> #7',
    });
    expect(order).toMatchObject({ customerEmail: to, customerLanguage: 'pt-BR' });
    expect(paid.status).toBe('PAID');
    // Queued with the move to PAID, before anything was sent.
    expect(await emailsOf(h, shop, order.reference)).toMatchObject([
      { kind: 'receipt', to, status: 'PENDING', attempt: 0, error: null },
    ]);

    expect(await sendEmails()).toBe(1);
    const mail = await smtp.waitFor(mailTo(to));
    expect(mail.from).toBe('pay@example.test');
    expect(mail.parsed.subject).toBe(`Recibo: ${order.amount} USDT pagos a Chain Shop`);
    const text = mail.parsed.text ?? '';
    const html = typeof mail.parsed.html === 'string' ? mail.parsed.html : '';
    expect(order.checkoutUrl).toBe(`http://pay.example.test/checkout/${order.reference}`);
    for (const part of [text, html]) {
      expect(part).toContain(order.checkoutUrl);
      expect(part).toContain(order.amount);
      expect(part).toContain('SOLANA');
      expect(part).toContain('Obrigado');
    }
    expect(text).toContain(`Valor: ${order.amount} USDT (SOLANA)`);
    expect(text).toContain('Pedido <script>alert(1)</script> #7');
    expect(html).toContain('Pedido &lt;script&gt;alert(1)&lt;/script&gt; #7');
    expect(html).not.toContain('<script>');
    expect(html).not.toMatch(/<img[^>]+src="http/i);
    expect(html).toContain('lang="pt-BR"');

    const [record] = await emailsOf(h, shop, order.reference);
    expect(record).toMatchObject({
      kind: 'receipt',
      to,
      subject: mail.parsed.subject,
      status: 'SENT',
      attempt: 1,
      error: null,
    });
    expect(record!.id).toMatch(/^em_[0-9a-f]{32}$/);
    expect(Date.parse(record!.createdAt)).toBeGreaterThan(0);
  });

  it("mails a point-of-sale sale's receipt to the address the customer gave the cashier, once however often the sale is retried", async () => {
    const shop = await newShop(h);
    const cashier = await addMember(h.server, shop.id, 'cashier');
    const to = `counter-${Date.now()}@example.com`;
    // The sale as the point of sale makes it (dashboard/src/lib/pos.ts): every option, source pos.
    const sale = {
      network: 'SOLANA',
      token: 'USDT',
      amount: '11.00',
      paymentOptions: 'all',
      source: 'pos',
      metadata: { pos: { subtotal: '10.00', tip: '1.00', tipPercent: 10, currency: 'USDT' } },
      customerEmail: to,
    };
    const charge = () =>
      h.server.api<Order>('POST', '/orders', {
        token: cashier.token,
        body: sale,
        headers: { 'idempotency-key': `pos-${to}` },
      });
    const first = await charge();
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ source: 'pos', customerEmail: to });
    const payer = await chain.newPayer({ mint });
    await chain.transfer({
      payer,
      recipientOwner: new PublicKey(shop.wallet),
      mint,
      amountUnits: parseUnits(first.body.amount, 6),
      reference: new PublicKey(first.body.reference),
    });
    await h.settle(shop, first.body.reference, 'PAID');
    // The screen lost its connection and charged again: the same sale, no second order or receipt.
    const retried = await charge();
    expect(retried.body.reference).toBe(first.body.reference);

    await sendEmails();
    const mail = await smtp.waitFor(mailTo(to));
    expect(mail.parsed.subject).toBe(`Receipt: ${first.body.amount} USDT paid to Chain Shop`);
    expect(mail.parsed.text).toContain(first.body.checkoutUrl);
    await sendEmails();
    expect(smtp.received().filter(mailTo(to))).toHaveLength(1);
    expect(await emailsOf(h, shop, first.body.reference)).toMatchObject([
      { kind: 'receipt', to, status: 'SENT' },
    ]);
    // The cashier reads the sale's e-mail record too: the sale is its own.
    const own = await h.server.api('GET', `/orders/${first.body.reference}/email-deliveries`, {
      token: cashier.token,
    });
    expect(own.status, own.text).toBe(200);
  });

  it('retries an e-mail the mail server refuses, on the webhooks schedule, until it is sent', async () => {
    const shop = await newShop(h);
    const to = `retry-${Date.now()}@example.com`;
    smtp.refuseNext(1, 451);
    const { order } = await paidOrder(h, shop, { customerEmail: to });

    await sendEmails();
    const [failed] = await emailsOf(h, shop, order.reference);
    expect(failed).toMatchObject({ status: 'FAILED', attempt: 1 });
    expect(failed!.error).toMatch(/451/);
    expect(smtp.received().some(mailTo(to))).toBe(false);

    // Not before its retry is due (WEBHOOK_RETRY_BASE_MS after the first attempt).
    await sleep(RETRY_BASE_MS + 100);
    await sendEmails();
    const mail = await smtp.waitFor(mailTo(to));
    expect(mail.parsed.subject).toBe(`Receipt: ${order.amount} USDT paid to Chain Shop`);
    expect(await emailsOf(h, shop, order.reference)).toMatchObject([
      { kind: 'receipt', status: 'SENT', attempt: 2, error: null },
    ]);
  });

  it('gives up after as many attempts as a webhook gets', async () => {
    const shop = await newShop(h);
    const to = `refused-${Date.now()}@example.com`;
    smtp.refuseNext(MAX_ATTEMPTS, 550, 'Mailbox unavailable');
    const { order } = await paidOrder(h, shop, { customerEmail: to });
    const deadline = Date.now() + 15_000;
    let records: EmailRecord[] = [];
    while (Date.now() < deadline) {
      await sendEmails();
      records = await emailsOf(h, shop, order.reference);
      if (records[0]?.status === 'GAVE_UP') break;
      await sleep(100);
    }
    expect(records).toMatchObject([{ status: 'GAVE_UP', attempt: MAX_ATTEMPTS }]);
    expect(records[0]!.error).toMatch(/550/);
    expect(smtp.received().some(mailTo(to))).toBe(false);
  });

  it('queues nothing and mails nothing without SMTP_URL', async () => {
    const shop = await newShop(unmailed);
    const to = `nobody-${Date.now()}@example.com`;
    const { order } = await paidOrder(unmailed, shop, { customerEmail: to });
    expect(order.customerEmail).toBe(to);
    expect(await unmailed.server.jobs.runNow('send-emails')).toBe(0);
    expect(await emailsOf(unmailed, shop, order.reference)).toEqual([]);
    const [[queued]] = (await unmailed.server.deps.db.sequelize.query(
      'SELECT count(*)::int AS count FROM email_deliveries e JOIN orders o ON o.id = e.order_id WHERE o.reference = :r',
      { replacements: { r: order.reference } },
    )) as [{ count: number }[], unknown];
    expect(queued!.count).toBe(0);
  });

  it("answers 404 for another merchant's order, and 400 for a bad customer address or language", async () => {
    const shop = await newShop(h);
    const order = (await h.createOrder(shop, { amount: '3', customerEmail: 'a@example.com' })) as Order;
    const other = await newMerchant(h.server);
    expectErrorBody(
      await h.server.api('GET', `/orders/${order.reference}/email-deliveries`, { token: other.token }),
      404,
      'NOT_FOUND',
    );
    expect(await emailsOf(h, shop, order.reference)).toEqual([]);

    const create = (body: Record<string, unknown>) =>
      h.server.api('POST', '/orders', {
        token: shop.token,
        body: { network: 'SOLANA', token: 'USDT', amount: '3', ...body },
      });
    expectFieldError(await create({ customerEmail: 'not an address' }), 'body.customerEmail');
    expectFieldError(await create({ customerEmail: `${'a'.repeat(250)}@example.com` }), 'body.customerEmail');
    expectFieldError(
      await create({ customerEmail: 'a@example.com', customerLanguage: 'fr' }),
      'body.customerLanguage',
    );
    const plain = await create({});
    expect(plain.body).toMatchObject({ customerEmail: null, customerLanguage: null });
  });
});
