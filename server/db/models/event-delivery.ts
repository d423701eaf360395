import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { LeasedModel } from './base-models';
import { required, serialKey, dateNow, timestamps, lease } from './columns';

export type DeliveryChannel = 'webhook' | 'messenger';

/** A task in the outbox: deliver one event on one channel, retried until delivered or given up. */
export class EventDelivery extends LeasedModel<EventDelivery> {
  declare id: CreationOptional<string>;
  declare eventId: string;
  declare channel: DeliveryChannel;
  /** The webhook URL, or the messenger chat id. */
  declare target: string;
  declare status: CreationOptional<'PENDING' | 'DELIVERED' | 'FAILED'>;
  declare attempts: CreationOptional<number>;
  declare nextAttemptAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: serialKey(),
        eventId: required(DataTypes.TEXT),
        channel: required(DataTypes.TEXT),
        target: required(DataTypes.TEXT),
        status: required(DataTypes.TEXT, 'PENDING'),
        attempts: required(DataTypes.INTEGER, 0),
        nextAttemptAt: dateNow(),
        ...lease(),
        ...timestamps(),
      },
      { sequelize, tableName: 'event_deliveries' },
    );
  }
}
