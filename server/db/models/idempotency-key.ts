import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export class IdempotencyKey extends Model<
  InferAttributes<IdempotencyKey>,
  InferCreationAttributes<IdempotencyKey>
> {
  declare merchantId: string;
  declare key: string;
  declare requestHash: string;
  declare responseStatus: CreationOptional<number | null>;
  declare responseBody: CreationOptional<unknown>;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        merchantId: { type: DataTypes.UUID, primaryKey: true },
        key: { type: DataTypes.TEXT, primaryKey: true },
        requestHash: { type: DataTypes.TEXT, allowNull: false },
        responseStatus: DataTypes.INTEGER,
        responseBody: DataTypes.JSONB,
        createdAt: { type: DataTypes.DATE, defaultValue: DataTypes.NOW },
      },
      { sequelize, tableName: 'idempotency_keys' },
    );
  }
}
