import { describe, expect, it } from 'vitest';
import { renderOrderEmail, type OrderMail } from '../../server/emails/render-order-email';

const order: OrderMail['order'] = {
  reference: '7Ld1vH9mZbYw3Ue8GUsNvJ2GkS9E3ws4q1rPzk2BtX5',
  amount: '12.500000',
  token: 'USDT',
  network: 'SOLANA',
  description: 'Plan <script>alert("x")</script> & more',
  checkoutUrl: 'https://pay.example.com/checkout/7Ld1vH9mZbYw3Ue8GUsNvJ2GkS9E3ws4q1rPzk2BtX5',
  expiresAt: '2026-05-01T14:30:00.000Z',
  paidAt: '2026-05-01T14:10:00.000Z',
  txId: '5u8fQh',
};
const mail = (over: Partial<OrderMail> = {}): OrderMail => ({
  kind: 'order',
  language: 'en',
  merchantName: 'Shop "Best" <Co>',
  order,
  ...over,
});

describe("the customer's e-mail about an order", () => {
  it('escapes every text from outside in the HTML part, and keeps it as it is in the text part', () => {
    const { html, text } = renderOrderEmail(mail());
    expect(html).not.toContain('<script>');
    expect(html).toContain('Plan &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
    expect(html).toContain('Shop &quot;Best&quot; &lt;Co&gt;');
    expect(text).toContain('Plan <script>alert("x")</script> & more');
  });

  it('links the checkout page and, when given, the subscription page; loads nothing from elsewhere', () => {
    const manageUrl = 'https://pay.example.com/subscriptions/manage/abc?x=1&y=2';
    const { html, text } = renderOrderEmail(mail({ manageUrl }));
    expect(html).toContain(`href="${order.checkoutUrl}"`);
    expect(html).toContain('href="https://pay.example.com/subscriptions/manage/abc?x=1&amp;y=2"');
    expect(text).toContain(`Pay now: ${order.checkoutUrl}`);
    expect(text).toContain(`Manage your subscription: ${manageUrl}`);
    expect(html).not.toMatch(/<img|<link|url\(|@import|<script/i);
    expect(renderOrderEmail(mail()).text).not.toContain('subscription');
  });

  it('says what each kind is about: an order to pay before it expires, a reminder, a receipt', () => {
    const due = renderOrderEmail(mail());
    expect(due.subject).toBe('Payment due: 12.500000 USDT to Shop "Best" <Co>');
    expect(due.text).toContain('Pay before: 2026-05-01 14:30 UTC');
    expect(renderOrderEmail(mail({ kind: 'reminder' })).subject).toBe(
      'Reminder: your payment to Shop "Best" <Co> expires soon',
    );
    const receipt = renderOrderEmail(mail({ kind: 'receipt' }));
    expect(receipt.subject).toBe('Receipt: 12.500000 USDT paid to Shop "Best" <Co>');
    expect(receipt.text).toContain('Paid on: 2026-05-01 14:10 UTC');
    expect(receipt.text).toContain('Transaction: 5u8fQh');
    expect(receipt.text).not.toContain('Pay before');
  });

  it("speaks the customer's language", () => {
    expect(renderOrderEmail(mail({ language: 'pt-BR', kind: 'receipt' })).subject).toBe(
      'Recibo: 12.500000 USDT pagos a Shop "Best" <Co>',
    );
    const es = renderOrderEmail(mail({ language: 'es', merchantName: null }));
    expect(es.subject).toBe('Pago pendiente: 12.500000 USDT a la tienda');
    expect(es.html).toContain('<html lang="es">');
    expect(es.text).toContain('Paga antes del: 2026-05-01 14:30 UTC');
  });

  it('keeps the subject on one line whatever the names hold', () => {
    const { subject } = renderOrderEmail(mail({ merchantName: 'Evil\r\nBcc: victim@example.com' }));
    expect(subject).not.toMatch(/[\r\n]/);
  });
});
