import type { Sequelize } from 'sequelize';
import { ApiKey } from './api-key';
import { AuditEntry } from './audit-entry';
import { EmailDelivery } from './email-delivery';
import { Event } from './event';
import { EventDelivery } from './event-delivery';
import { Member } from './member';
import { Merchant } from './merchant';
import { MessengerDelivery } from './messenger-delivery';
import { Order, type StoredPaymentOption } from './order';
export type { StoredPaymentOption };
import { PaymentClaim } from './payment-claim';
import { Payout, PayoutItem } from './payout';
import { Refund } from './refund';
import { Subscription } from './subscription';
import { Wallet } from './wallet';
import { WebhookDelivery } from './webhook-delivery';

export {
  ApiKey,
  AuditEntry,
  EmailDelivery,
  Event,
  EventDelivery,
  Member,
  Merchant,
  MessengerDelivery,
  Order,
  PaymentClaim,
  Payout,
  PayoutItem,
  Refund,
  Subscription,
  Wallet,
  WebhookDelivery,
};

/**
 * Models bound to one connection. Each call makes fresh subclasses, so two databases open in one
 * process (tests, tools) never re-bind each other's models; instances are still `instanceof` the
 * classes above.
 */
export function initModels(sequelize: Sequelize) {
  const models = {
    ApiKey: class ApiKeyModel extends ApiKey {},
    AuditEntry: class AuditEntryModel extends AuditEntry {},
    EmailDelivery: class EmailDeliveryModel extends EmailDelivery {},
    Event: class EventModel extends Event {},
    EventDelivery: class EventDeliveryModel extends EventDelivery {},
    Member: class MemberModel extends Member {},
    Merchant: class MerchantModel extends Merchant {},
    MessengerDelivery: class MessengerDeliveryModel extends MessengerDelivery {},
    Order: class OrderModel extends Order {},
    PaymentClaim: class PaymentClaimModel extends PaymentClaim {},
    Payout: class PayoutModel extends Payout {},
    PayoutItem: class PayoutItemModel extends PayoutItem {},
    Refund: class RefundModel extends Refund {},
    Subscription: class SubscriptionModel extends Subscription {},
    Wallet: class WalletModel extends Wallet {},
    WebhookDelivery: class WebhookDeliveryModel extends WebhookDelivery {},
  };
  for (const model of Object.values(models)) model.initModel(sequelize);
  return models;
}
export type Models = ReturnType<typeof initModels>;
