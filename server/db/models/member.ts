import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import type { Role } from '../../../contract';
import { TimestampedModel } from './base-models';
import { required, timestamps, primaryKey, merchantRef } from './columns';

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
  /** The TOTP secret, sealed (migration 0031): set once a first code confirmed it. */
  declare twoFactorSecret: CreationOptional<string | null>;
  /** An enrolment begun, not confirmed yet: its secret, sealed. */
  declare twoFactorPending: CreationOptional<string | null>;
  declare twoFactorEnabledAt: CreationOptional<Date | null>;
  /** The last TOTP time step a code was accepted at: a code is accepted once. */
  declare twoFactorLastStep: CreationOptional<string | null>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: primaryKey(DataTypes.UUID, DataTypes.UUIDV4),
        merchantId: merchantRef(),
        email: required(DataTypes.TEXT),
        name: DataTypes.TEXT,
        passwordHash: required(DataTypes.TEXT),
        role: required(DataTypes.TEXT),
        tokenVersion: required(DataTypes.INTEGER, 0),
        removedAt: DataTypes.DATE,
        twoFactorSecret: DataTypes.TEXT,
        twoFactorPending: DataTypes.TEXT,
        twoFactorEnabledAt: DataTypes.DATE,
        twoFactorLastStep: DataTypes.BIGINT,
        ...timestamps(),
      },
      { sequelize, tableName: 'members' },
    );
  }
}
