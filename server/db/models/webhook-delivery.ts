import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

/** One webhook attempt: what was sent and what came back. */
export class WebhookDelivery extends Model<
  InferAttributes<WebhookDelivery>,
  InferCreationAttributes<WebhookDelivery>
> {
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
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        orderId: DataTypes.BIGINT,
        deliveryId: DataTypes.BIGINT,
        eventId: { type: DataTypes.TEXT, allowNull: false },
        eventType: { type: DataTypes.TEXT, allowNull: false },
        url: { type: DataTypes.TEXT, allowNull: false },
        attempt: { type: DataTypes.INTEGER, allowNull: false },
        requestBody: { type: DataTypes.TEXT, allowNull: false },
        responseStatus: DataTypes.INTEGER,
        responseBody: DataTypes.TEXT,
        error: DataTypes.TEXT,
        durationMs: DataTypes.INTEGER,
        nextRetryAt: DataTypes.DATE,
        createdAt: { type: DataTypes.DATE, defaultValue: DataTypes.NOW },
      },
      { sequelize, tableName: 'webhook_deliveries' },
    );
  }
}
