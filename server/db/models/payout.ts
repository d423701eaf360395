import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import type { Network, PayoutItemStatus, PayoutStatus, Token } from '../../../contract';
import { LeasedModel, TimestampedModel } from './base-models';
import { bigintColumn } from './bigint-attribute';
import { lease, required, timestamps, primaryKey, merchantRef } from './columns';

/** A batch of transfers from the merchant's own wallets (migration 0034). */
export class Payout extends LeasedModel<Payout> {
  declare id: string;
  declare merchantId: string;
  declare status: PayoutStatus;
  declare description: string | null;
  /** The member who made it (for an API key, its maker). */
  declare createdBy: string;
  /** The account's `payout_approvals` when it was made: 1, or 2 (the creator and another member). */
  declare approvalsRequired: number;
  declare approvedAt: CreationOptional<Date | null>;
  /** Items without a final transfer by then are FAILED (PAYOUT_DEADLINE_SECONDS after approval). */
  declare deadlineAt: CreationOptional<Date | null>;
  declare canceledAt: CreationOptional<Date | null>;
  /** When the verifier looks next; null: nothing to look for. */
  declare nextCheckAt: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: primaryKey(DataTypes.TEXT),
        merchantId: merchantRef(),
        status: required(DataTypes.TEXT),
        description: DataTypes.TEXT,
        createdBy: required(DataTypes.UUID),
        approvalsRequired: required(DataTypes.SMALLINT),
        approvedAt: DataTypes.DATE,
        deadlineAt: DataTypes.DATE,
        canceledAt: DataTypes.DATE,
        nextCheckAt: DataTypes.DATE,
        ...lease(),
        ...timestamps(),
      },
      { sequelize, tableName: 'payouts' },
    );
  }
}

/** One transfer of a payout: exact base units of a token, to one address. */
export class PayoutItem extends TimestampedModel<PayoutItem> {
  declare id: string;
  declare payoutId: string;
  declare position: number;
  declare network: Network;
  declare token: Token;
  /** The mint or contract and its decimals when the item was made. */
  declare tokenMint: string;
  declare decimals: number;
  /** The paying wallet, set when its transactions are given. */
  declare fromAddress: CreationOptional<string | null>;
  declare toAddress: string;
  declare amountUnits: bigint;
  /** A fresh 32-byte key (base58) naming the item on chain, as a refund's tag names the refund. */
  declare tag: string;
  declare reference: string | null;
  declare note: string | null;
  declare status: PayoutItemStatus;
  declare txId: CreationOptional<string | null>;
  declare blockTime: CreationOptional<Date | null>;
  declare failureReason: CreationOptional<string | null>;
  declare confirmedAt: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: primaryKey(DataTypes.TEXT),
        payoutId: required(DataTypes.TEXT),
        position: required(DataTypes.INTEGER),
        network: required(DataTypes.TEXT),
        token: required(DataTypes.TEXT),
        tokenMint: required(DataTypes.TEXT),
        decimals: required(DataTypes.SMALLINT),
        fromAddress: DataTypes.TEXT,
        toAddress: required(DataTypes.TEXT),
        amountUnits: bigintColumn('amountUnits', false, true),
        tag: required(DataTypes.TEXT),
        reference: DataTypes.TEXT,
        note: DataTypes.TEXT,
        status: required(DataTypes.TEXT),
        txId: DataTypes.TEXT,
        blockTime: DataTypes.DATE,
        failureReason: DataTypes.TEXT,
        confirmedAt: DataTypes.DATE,
        ...timestamps(),
      },
      { sequelize, tableName: 'payout_items' },
    );
  }
}
