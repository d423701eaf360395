import type { Sequelize } from 'sequelize';
import { AuditEntry } from './audit-entry';
import { IdempotencyKey } from './idempotency-key';
import { Merchant } from './merchant';
import { MessengerDelivery } from './messenger-delivery';
import { Order } from './order';
import { PaymentClaim } from './payment-claim';
import { Wallet } from './wallet';
import { WebhookDelivery } from './webhook-delivery';

export {
  AuditEntry,
  IdempotencyKey,
  Merchant,
  MessengerDelivery,
  Order,
  PaymentClaim,
  Wallet,
  WebhookDelivery,
};

export function initModels(sequelize: Sequelize) {
  for (const model of [
    AuditEntry,
    IdempotencyKey,
    Merchant,
    MessengerDelivery,
    Order,
    PaymentClaim,
    Wallet,
    WebhookDelivery,
  ])
    model.initModel(sequelize);
  return {
    AuditEntry,
    IdempotencyKey,
    Merchant,
    MessengerDelivery,
    Order,
    PaymentClaim,
    Wallet,
    WebhookDelivery,
  };
}
export type Models = ReturnType<typeof initModels>;
