import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { TimestampedModel } from './base-models';
import { required, timestamps, primaryKey } from './columns';

export class Merchant extends TimestampedModel<Merchant> {
  declare id: CreationOptional<string>;
  declare email: string;
  /** Checked by order creation (server/orders/creation-statements.ts); members carry their own (Member). */
  declare tokenVersion: CreationOptional<number>;
  declare fullName: CreationOptional<string | null>;
  declare phone: CreationOptional<string | null>;
  declare webhookUrl: CreationOptional<string | null>;
  declare messengerChatId: CreationOptional<string | null>;
  declare messengerBotTokenSealed: CreationOptional<string | null>;
  declare webhookSecretSealed: CreationOptional<string | null>;
  declare previousWebhookSecretSealed: CreationOptional<string | null>;
  declare previousWebhookSecretExpiresAt: CreationOptional<Date | null>;
  /** Overrides UNDERPAYMENT_TOLERANCE_BPS when set. */
  declare underpaymentToleranceBps: CreationOptional<number | null>;
  /** The version events are rendered at (contract/api-versions.ts); null: the latest. */
  declare webhookApiVersion: CreationOptional<string | null>;
  /** The owner's switch: every member signs in with two-factor (migration 0031). */
  declare requireTwoFactor: CreationOptional<boolean>;
  /** What the point of sale sells in (migration 0032): BRL, EUR or a token; null: the first token. */
  declare currency: CreationOptional<string | null>;
  /** The tips the point of sale offers, in percent; empty: none. */
  declare tipPercentages: CreationOptional<number[]>;
  /** How many members approve a payout, 1 or 2 (migration 0034). */
  declare payoutApprovals: CreationOptional<1 | 2>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: primaryKey(DataTypes.UUID, DataTypes.UUIDV4),
        email: required(DataTypes.TEXT),
        tokenVersion: required(DataTypes.INTEGER, 0),
        fullName: DataTypes.TEXT,
        phone: DataTypes.TEXT,
        webhookUrl: DataTypes.TEXT,
        messengerChatId: DataTypes.TEXT,
        messengerBotTokenSealed: DataTypes.TEXT,
        webhookSecretSealed: DataTypes.TEXT,
        previousWebhookSecretSealed: DataTypes.TEXT,
        previousWebhookSecretExpiresAt: DataTypes.DATE,
        underpaymentToleranceBps: DataTypes.INTEGER,
        webhookApiVersion: DataTypes.TEXT,
        requireTwoFactor: required(DataTypes.BOOLEAN, false),
        currency: DataTypes.TEXT,
        tipPercentages: required(DataTypes.ARRAY(DataTypes.SMALLINT), []),
        payoutApprovals: required(DataTypes.SMALLINT, 1),
        ...timestamps(),
      },
      { sequelize, tableName: 'merchants' },
    );
  }
}
