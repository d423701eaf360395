import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { TimestampedModel } from './base-models';
import { required, serialKey, timestamps, merchantRef } from './columns';
import type {
  CreatedBy,
  Locale,
  Network,
  OrderKind,
  OrderSource,
  OrderStatus,
  Token,
} from '../../../contract';
import { bigintColumn } from './bigint-attribute';

/**
 * A payment option beyond the order's first (its own columns), as stored in `payment_options`
 * (migration 0022): base units of its own token, as decimal text.
 */
export type StoredPaymentOption = {
  network: Network;
  token: Token;
  tokenMint: string;
  decimals: number;
  recipient: string;
  walletId: string;
  amountUnits: string;
  amountUnique: boolean;
};

export class Order extends TimestampedModel<Order> {
  declare id: CreationOptional<string>;
  declare reference: string;
  declare merchantId: string;
  declare walletId: string;
  declare network: Network;
  declare token: Token;
  declare tokenMint: string;
  /** The token's decimals when the order was made: every amount of the order is in these base units. */
  declare tokenDecimals: number;
  declare recipient: string;
  declare amountUnits: bigint;
  declare amountReceivedUnits: CreationOptional<bigint>;
  /** Whether no other payable order to the recipient has this amount (so the amount identifies it). */
  declare amountUnique: CreationOptional<boolean>;
  /** Sum of verified refunds. */
  declare amountRefundedUnits: CreationOptional<bigint>;
  declare quoteCurrency: string | null;
  declare quoteUnits: bigint | null;
  declare fxRate: string | null;
  declare fxSource: string | null;
  declare quotedAt: Date | null;
  declare status: OrderStatus;
  declare description: string | null;
  declare metadata: Record<string, unknown> | null;
  declare webhookUrl: string | null;
  declare returnUrl: CreationOptional<string | null>;
  declare messengerChatId: string | null;
  declare txId: CreationOptional<string | null>;
  declare paidAt: CreationOptional<Date | null>;
  declare paidLate: CreationOptional<boolean>;
  declare expiresAt: Date;
  /** When another order paid for what this one billed and closed it for good (migration 0028). */
  declare supersededAt: CreationOptional<Date | null>;
  /** The options beyond the first (null: the order's own fields are its one option). */
  declare paymentOptions: CreationOptional<StoredPaymentOption[] | null>;
  /** Decimals of amountReceivedUnits and amountRefundedUnits; null: tokenDecimals (server/orders/payment-options.ts). */
  declare sumDecimals: CreationOptional<number | null>;
  /** The option of the first credited payment (0: the order's own fields); null before. */
  declare paidWith: CreationOptional<number | null>;
  /** The subscription this order bills a period of (migration 0023); null for POST /orders. */
  declare subscriptionId: CreationOptional<string | null>;
  declare periodIndex: CreationOptional<number | null>;
  /** 0 for a period's first order; 1, 2… for the orders remade after one expired unpaid. */
  declare periodAttempt: CreationOptional<number | null>;
  declare periodStart: CreationOptional<Date | null>;
  declare periodEnd: CreationOptional<Date | null>;
  /** The payer's address for receipts (migration 0024); null: none is mailed. */
  declare customerEmail: CreationOptional<string | null>;
  /** The language of the customer's e-mails; null: en. */
  declare customerLanguage: CreationOptional<Locale | null>;
  /** Who made it (migration 0030): a member, an API key, or null for the system. */
  declare createdBy: CreationOptional<CreatedBy>;
  /** `order`, or `x402`: a payment per API call this service settled as facilitator (migration 0033). */
  declare kind: CreationOptional<OrderKind>;
  /** x402: the URL paid for; null for other orders. */
  declare resource: CreationOptional<string | null>;
  /** x402: the paying wallet; null for other orders. */
  declare payer: CreationOptional<string | null>;
  /** Where the order came from (migration 0032): api, dashboard, pos, subscription. */
  declare source: CreationOptional<OrderSource>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: serialKey(),
        reference: required(DataTypes.TEXT),
        merchantId: merchantRef(),
        walletId: required(DataTypes.UUID),
        network: required(DataTypes.TEXT),
        token: required(DataTypes.TEXT),
        tokenMint: required(DataTypes.TEXT),
        tokenDecimals: required(DataTypes.SMALLINT),
        recipient: required(DataTypes.TEXT),
        amountUnits: bigintColumn('amountUnits', false, true),
        amountReceivedUnits: { ...bigintColumn('amountReceivedUnits', false, true), defaultValue: '0' },
        amountUnique: required(DataTypes.BOOLEAN, true),
        amountRefundedUnits: { ...bigintColumn('amountRefundedUnits', false, true), defaultValue: '0' },
        quoteCurrency: DataTypes.TEXT,
        quoteUnits: bigintColumn('quoteUnits', true),
        fxRate: DataTypes.TEXT,
        fxSource: DataTypes.TEXT,
        quotedAt: DataTypes.DATE,
        status: required(DataTypes.TEXT),
        description: DataTypes.TEXT,
        metadata: DataTypes.JSONB,
        webhookUrl: DataTypes.TEXT,
        returnUrl: DataTypes.TEXT,
        messengerChatId: DataTypes.TEXT,
        txId: DataTypes.TEXT,
        paidAt: DataTypes.DATE,
        paidLate: required(DataTypes.BOOLEAN, false),
        expiresAt: required(DataTypes.DATE),
        supersededAt: DataTypes.DATE,
        paymentOptions: DataTypes.JSONB,
        sumDecimals: DataTypes.SMALLINT,
        paidWith: DataTypes.SMALLINT,
        subscriptionId: DataTypes.TEXT,
        periodIndex: DataTypes.INTEGER,
        periodAttempt: DataTypes.INTEGER,
        periodStart: DataTypes.DATE,
        periodEnd: DataTypes.DATE,
        customerEmail: DataTypes.TEXT,
        customerLanguage: DataTypes.TEXT,
        createdBy: DataTypes.JSONB,
        kind: required(DataTypes.TEXT, 'order'),
        resource: DataTypes.TEXT,
        payer: DataTypes.TEXT,
        source: required(DataTypes.TEXT, 'api'),
        ...timestamps(),
      },
      { sequelize, tableName: 'orders' },
    );
  }
}
