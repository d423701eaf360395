import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { ApiKeyScope } from '../../../contract';

/** An API key: its SHA-256 and last four characters, never the secret. */
export class ApiKey extends Model<InferAttributes<ApiKey>, InferCreationAttributes<ApiKey>> {
  declare id: string;
  declare merchantId: string;
  declare name: string;
  declare scopes: ApiKeyScope[];
  declare secretHash: string;
  declare last4: string;
  declare createdAt: Date;
  /** Written at most once a minute per key and instance (server/auth/api-key-usage.ts). */
  declare lastUsedAt: CreationOptional<Date | null>;
  declare revokedAt: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true },
        merchantId: { type: DataTypes.UUID, allowNull: false },
        name: { type: DataTypes.TEXT, allowNull: false },
        scopes: { type: DataTypes.ARRAY(DataTypes.TEXT), allowNull: false },
        secretHash: { type: DataTypes.TEXT, allowNull: false },
        last4: { type: DataTypes.TEXT, allowNull: false },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        lastUsedAt: DataTypes.DATE,
        revokedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'api_keys' },
    );
  }
}
