import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export type DeliveryChannel = 'webhook' | 'messenger';

/** A task in the outbox: deliver one event on one channel, retried until delivered or given up. */
export class EventDelivery extends Model<
  InferAttributes<EventDelivery>,
  InferCreationAttributes<EventDelivery>
> {
  declare id: CreationOptional<string>;
  declare eventId: string;
  declare channel: DeliveryChannel;
  /** The webhook URL, or the messenger chat id. */
  declare target: string;
  declare status: CreationOptional<'PENDING' | 'DELIVERED' | 'FAILED'>;
  declare attempts: CreationOptional<number>;
  declare nextAttemptAt: CreationOptional<Date>;
  declare lockedUntil: CreationOptional<Date | null>;
  declare lockedBy: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        eventId: { type: DataTypes.TEXT, allowNull: false },
        channel: { type: DataTypes.TEXT, allowNull: false },
        target: { type: DataTypes.TEXT, allowNull: false },
        status: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'PENDING' },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        nextAttemptAt: { type: DataTypes.DATE, defaultValue: DataTypes.NOW },
        lockedUntil: DataTypes.DATE,
        lockedBy: DataTypes.TEXT,
        createdAt: { type: DataTypes.DATE, defaultValue: DataTypes.NOW },
        updatedAt: { type: DataTypes.DATE, defaultValue: DataTypes.NOW },
      },
      { sequelize, tableName: 'event_deliveries' },
    );
  }
}
