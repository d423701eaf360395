import { DataTypes, type Sequelize } from 'sequelize';
import { CreatedModel } from './base-models';
import { required, dateNow, primaryKey, merchantRef } from './columns';

/** An event (of an order, or none: a test `ping`); `body` is the exact JSON every attempt sends (and signs). */
export class Event extends CreatedModel<Event> {
  declare id: string;
  declare orderId: string | null;
  declare merchantId: string;
  declare type: string;
  declare body: string;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: primaryKey(DataTypes.TEXT),
        orderId: DataTypes.BIGINT,
        merchantId: merchantRef(),
        type: required(DataTypes.TEXT),
        body: required(DataTypes.TEXT),
        createdAt: dateNow(),
      },
      { sequelize, tableName: 'events' },
    );
  }
}
