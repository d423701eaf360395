import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import type {
  NetworkToken,
  Network,
  SubscriptionInterval,
  SubscriptionStatus,
  Token,
} from '../../../contract';
import { LeasedModel } from './base-models';
import { lease, required, timestamps, primaryKey, merchantRef } from './columns';

/** A subscription (migration 0023): its plan, where its billing stands, and when the job looks at it next. */
export class Subscription extends LeasedModel<Subscription> {
  declare id: string;
  declare merchantId: string;
  declare status: SubscriptionStatus;
  declare customerEmail: string | null;
  declare customerName: string | null;
  declare customerReference: string | null;
  declare customerLanguage: string;
  declare interval: SubscriptionInterval;
  declare intervalCount: number;
  /** The price per period as given (decimal text), or null for a fiat price. */
  declare amount: string | null;
  declare quoteCurrency: string | null;
  declare quoteAmount: string | null;
  declare network: Network;
  declare token: Token;
  declare tokenDecimals: number;
  declare paymentOptions: 'all' | NetworkToken[] | null;
  declare description: string | null;
  declare metadata: Record<string, unknown> | null;
  declare webhookUrl: string | null;
  declare trialDays: number;
  declare dueDays: number;
  /** Where period 0 starts (startAt after the trial): every period is counted from it. */
  declare anchorAt: Date;
  declare trialEnd: Date | null;
  /** The period of the latest order made; -1 before the first. */
  declare billedPeriod: CreationOptional<number>;
  declare billedAttempt: CreationOptional<number>;
  declare latestOrderId: CreationOptional<string | null>;
  declare latestOrderReference: CreationOptional<string | null>;
  declare reminderAt: CreationOptional<Date | null>;
  /** When the billing job looks at it next; null: never by itself (PAUSED, CANCELED). */
  declare nextRunAt: Date | null;
  declare cancelAtPeriodEnd: CreationOptional<boolean>;
  declare pastDueSince: CreationOptional<Date | null>;
  declare pausedAt: CreationOptional<Date | null>;
  declare canceledAt: CreationOptional<Date | null>;
  /** The customer's page secret, sealed with the data encryption key (the answers show its URL). */
  declare manageToken: string;
  declare manageTokenHash: string;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: primaryKey(DataTypes.TEXT),
        merchantId: merchantRef(),
        status: required(DataTypes.TEXT),
        customerEmail: DataTypes.TEXT,
        customerName: DataTypes.TEXT,
        customerReference: DataTypes.TEXT,
        customerLanguage: required(DataTypes.TEXT, 'en'),
        interval: required(DataTypes.TEXT),
        intervalCount: required(DataTypes.INTEGER),
        amount: DataTypes.TEXT,
        quoteCurrency: DataTypes.TEXT,
        quoteAmount: DataTypes.TEXT,
        network: required(DataTypes.TEXT),
        token: required(DataTypes.TEXT),
        tokenDecimals: required(DataTypes.SMALLINT),
        paymentOptions: DataTypes.JSONB,
        description: DataTypes.TEXT,
        metadata: DataTypes.JSONB,
        webhookUrl: DataTypes.TEXT,
        trialDays: required(DataTypes.INTEGER, 0),
        dueDays: required(DataTypes.INTEGER),
        anchorAt: required(DataTypes.DATE),
        trialEnd: DataTypes.DATE,
        billedPeriod: required(DataTypes.INTEGER, -1),
        billedAttempt: required(DataTypes.INTEGER, 0),
        latestOrderId: DataTypes.BIGINT,
        latestOrderReference: DataTypes.TEXT,
        reminderAt: DataTypes.DATE,
        nextRunAt: DataTypes.DATE,
        // The billing job's lease (server/db/lease.ts): given up with the write that ends its work.
        ...lease(),
        cancelAtPeriodEnd: required(DataTypes.BOOLEAN, false),
        pastDueSince: DataTypes.DATE,
        pausedAt: DataTypes.DATE,
        canceledAt: DataTypes.DATE,
        manageToken: required(DataTypes.TEXT),
        manageTokenHash: required(DataTypes.TEXT),
        ...timestamps(),
      },
      { sequelize, tableName: 'subscriptions' },
    );
  }
}
