import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { CreatedModel } from './base-models';
import { required, serialKey, dateNow } from './columns';

/** One messenger send. The bot token is never stored here. */
export class MessengerDelivery extends CreatedModel<MessengerDelivery> {
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

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: serialKey(),
        orderId: DataTypes.BIGINT,
        deliveryId: DataTypes.BIGINT,
        eventType: required(DataTypes.TEXT),
        chatId: required(DataTypes.TEXT),
        text: required(DataTypes.TEXT),
        status: required(DataTypes.TEXT),
        responseStatus: DataTypes.INTEGER,
        responseBody: DataTypes.TEXT,
        error: DataTypes.TEXT,
        attempt: required(DataTypes.INTEGER),
        durationMs: DataTypes.INTEGER,
        createdAt: dateNow(),
      },
      { sequelize, tableName: 'messenger_deliveries' },
    );
  }
}
