import type { AuditKind } from '../../../contract';
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export type AuditActor = 'merchant' | 'payer' | 'system';

export class AuditEntry extends Model<InferAttributes<AuditEntry>, InferCreationAttributes<AuditEntry>> {
  declare id: CreationOptional<string>;
  declare orderId: string;
  declare type: AuditKind;
  declare actor: AuditActor;
  declare data: CreationOptional<Record<string, unknown>>;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        orderId: { type: DataTypes.BIGINT, allowNull: false },
        type: { type: DataTypes.TEXT, allowNull: false },
        actor: { type: DataTypes.TEXT, allowNull: false },
        data: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
        createdAt: { type: DataTypes.DATE, defaultValue: DataTypes.NOW },
      },
      { sequelize, tableName: 'audit_entries' },
    );
  }
}
