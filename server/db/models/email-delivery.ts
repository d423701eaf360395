import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import type { EmailKind, EmailStatus, Locale } from '../../../contract';
import { LeasedModel } from './base-models';
import { dateNow, lease, required, timestamps, primaryKey, merchantRef } from './columns';

/**
 * An e-mail in the outbox (migration 0024): to an order's customer, or an invitation to join an
 * account (no order: migration 0030), rendered once, sent by the send-emails job.
 */
export class EmailDelivery extends LeasedModel<EmailDelivery> {
  /** em_ and 32 hex digits. */
  declare id: string;
  /** The order it is about; null for an invitation. */
  declare orderId: string | null;
  declare merchantId: string;
  declare kind: EmailKind;
  declare toAddress: string;
  declare language: Locale;
  declare subject: string;
  declare text: string;
  declare html: string;
  declare status: CreationOptional<EmailStatus>;
  /** Attempts made so far. */
  declare attempt: CreationOptional<number>;
  declare error: CreationOptional<string | null>;
  declare nextAttemptAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: primaryKey(DataTypes.TEXT),
        orderId: DataTypes.BIGINT,
        merchantId: merchantRef(),
        kind: required(DataTypes.TEXT),
        toAddress: required(DataTypes.TEXT),
        language: required(DataTypes.TEXT),
        subject: required(DataTypes.TEXT),
        text: required(DataTypes.TEXT),
        html: required(DataTypes.TEXT),
        status: required(DataTypes.TEXT, 'PENDING'),
        attempt: required(DataTypes.INTEGER, 0),
        error: DataTypes.TEXT,
        nextAttemptAt: dateNow(),
        ...lease(),
        ...timestamps(),
      },
      { sequelize, tableName: 'email_deliveries' },
    );
  }
}
