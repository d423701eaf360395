import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { CreatedModel } from './base-models';
import { required, serialKey, dateNow } from './columns';

/** One webhook attempt: what was sent and what came back. */
export class WebhookDelivery extends CreatedModel<WebhookDelivery> {
  declare id: CreationOptional<string>;
  /** Null for a test delivery (a `ping`, about no order). */
  declare orderId: string | null;
  declare deliveryId: string | null;
  declare eventId: string;
  declare eventType: string;
  declare url: string;
  declare attempt: number;
  declare requestBody: string;
  declare responseStatus: number | null;
  declare responseBody: string | null;
  declare error: string | null;
  declare durationMs: number | null;
  declare nextRetryAt: Date | null;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: serialKey(),
        orderId: DataTypes.BIGINT,
        deliveryId: DataTypes.BIGINT,
        eventId: required(DataTypes.TEXT),
        eventType: required(DataTypes.TEXT),
        url: required(DataTypes.TEXT),
        attempt: required(DataTypes.INTEGER),
        requestBody: required(DataTypes.TEXT),
        responseStatus: DataTypes.INTEGER,
        responseBody: DataTypes.TEXT,
        error: DataTypes.TEXT,
        durationMs: DataTypes.INTEGER,
        nextRetryAt: DataTypes.DATE,
        createdAt: dateNow(),
      },
      { sequelize, tableName: 'webhook_deliveries' },
    );
  }
}
