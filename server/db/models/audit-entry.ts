import type { AUDIT_ACTORS, AuditKind } from '../../../contract';
import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { CreatedModel } from './base-models';
import { required, serialKey, dateNow, orderRef } from './columns';

/** Who an entry says acted: a member, an API key, the payer, the service ('merchant': before members). */
export type AuditActor = (typeof AUDIT_ACTORS)[number];

export class AuditEntry extends CreatedModel<AuditEntry> {
  declare id: CreationOptional<string>;
  declare orderId: string;
  declare type: AuditKind;
  declare actor: AuditActor;
  declare data: CreationOptional<Record<string, unknown>>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: serialKey(),
        orderId: orderRef(),
        type: required(DataTypes.TEXT),
        actor: required(DataTypes.TEXT),
        data: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
        createdAt: dateNow(),
      },
      { sequelize, tableName: 'audit_entries' },
    );
  }
}
