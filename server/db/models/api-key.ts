import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { required, primaryKey, merchantRef } from './columns';
import type { ApiKeyScope } from '../../../contract';

/** An API key: its SHA-256 and last four characters, never the secret. */
export class ApiKey extends Model<InferAttributes<ApiKey>, InferCreationAttributes<ApiKey>> {
  declare id: string;
  declare merchantId: string;
  declare name: string;
  declare scopes: ApiKeyScope[];
  /** The member who made it: the key acts within that member's permissions (at most). */
  declare createdBy: string;
  declare secretHash: string;
  declare last4: string;
  declare createdAt: Date;
  /** Written at most once a minute per key and instance (server/auth/api-key-usage.ts). */
  declare lastUsedAt: CreationOptional<Date | null>;
  declare revokedAt: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: primaryKey(DataTypes.UUID),
        merchantId: merchantRef(),
        name: required(DataTypes.TEXT),
        scopes: required(DataTypes.ARRAY(DataTypes.TEXT)),
        createdBy: required(DataTypes.UUID),
        secretHash: required(DataTypes.TEXT),
        last4: required(DataTypes.TEXT),
        createdAt: required(DataTypes.DATE),
        lastUsedAt: DataTypes.DATE,
        revokedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'api_keys' },
    );
  }
}
