import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

/** An event (of an order, or none: a test `ping`); `body` is the exact JSON every attempt sends (and signs). */
export class Event extends Model<InferAttributes<Event>, InferCreationAttributes<Event>> {
  declare id: string;
  declare orderId: string | null;
  declare merchantId: string;
  declare type: string;
  declare body: string;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: { type: DataTypes.TEXT, primaryKey: true },
        orderId: DataTypes.BIGINT,
        merchantId: { type: DataTypes.UUID, allowNull: false },
        type: { type: DataTypes.TEXT, allowNull: false },
        body: { type: DataTypes.TEXT, allowNull: false },
        createdAt: { type: DataTypes.DATE, defaultValue: DataTypes.NOW },
      },
      { sequelize, tableName: 'events' },
    );
  }
}
