import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

/** One messenger send. The bot token is never stored here. */
export class MessengerDelivery extends Model<
  InferAttributes<MessengerDelivery>,
  InferCreationAttributes<MessengerDelivery>
> {
  declare id: CreationOptional<string>;
  /** Null for a test delivery (a `ping`, about no order). */
  declare orderId: string | null;
  declare deliveryId: string | null;
  declare eventType: string;
  declare chatId: string;
  declare text: string;
  declare status: 'SENT' | 'FAILED';
  declare responseStatus: number | null;
  declare responseBody: string | null;
  declare error: string | null;
  declare attempt: number;
  /** Null for sends recorded before migration 0021. */
  declare durationMs: number | null;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        orderId: DataTypes.BIGINT,
        deliveryId: DataTypes.BIGINT,
        eventType: { type: DataTypes.TEXT, allowNull: false },
        chatId: { type: DataTypes.TEXT, allowNull: false },
        text: { type: DataTypes.TEXT, allowNull: false },
        status: { type: DataTypes.TEXT, allowNull: false },
        responseStatus: DataTypes.INTEGER,
        responseBody: DataTypes.TEXT,
        error: DataTypes.TEXT,
        attempt: { type: DataTypes.INTEGER, allowNull: false },
        durationMs: DataTypes.INTEGER,
        createdAt: { type: DataTypes.DATE, defaultValue: DataTypes.NOW },
      },
      { sequelize, tableName: 'messenger_deliveries' },
    );
  }
}
