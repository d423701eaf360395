import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import type { Role } from '../../../contract';
import { TimestampedModel } from './base-models';
import { required, timestamps } from './columns';

/** A person who signs in to an account (a merchant) with its own e-mail and password (migration 0029). */
export class Member extends TimestampedModel<Member> {
  declare id: CreationOptional<string>;
  declare merchantId: string;
  declare email: string;
  declare name: CreationOptional<string | null>;
  declare passwordHash: string;
  declare role: Role;
  /** Bumped by a password change, a demotion or a removal: tokens and sessions of older versions are refused. */
  declare tokenVersion: CreationOptional<number>;
  declare removedAt: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        merchantId: required(DataTypes.UUID),
        email: required(DataTypes.TEXT),
        name: DataTypes.TEXT,
        passwordHash: required(DataTypes.TEXT),
        role: required(DataTypes.TEXT),
        tokenVersion: required(DataTypes.INTEGER, 0),
        removedAt: DataTypes.DATE,
        ...timestamps(),
      },
      { sequelize, tableName: 'members' },
    );
  }
}
