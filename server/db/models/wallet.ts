import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { CreatedModel } from './base-models';
import { required, dateNow, primaryKey, merchantRef } from './columns';
import type { Network } from '../../../contract';

export class Wallet extends CreatedModel<Wallet> {
  declare id: CreationOptional<string>;
  declare merchantId: string;
  declare name: string | null;
  declare network: Network;
  declare publicAddress: string;
  /** Wallets are kept when removed: past orders point at them. */
  declare deletedAt: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: primaryKey(DataTypes.UUID, DataTypes.UUIDV4),
        merchantId: merchantRef(),
        name: DataTypes.TEXT,
        network: required(DataTypes.TEXT),
        publicAddress: required(DataTypes.TEXT),
        createdAt: dateNow(),
        deletedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'wallets' },
    );
  }
}
