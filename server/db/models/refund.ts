import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { LeasedModel } from './base-models';
import { required, dateNow, timestamps, lease, primaryKey, merchantRef, orderRef } from './columns';
import type { Network, RefundStatus } from '../../../contract';
import { bigintColumn } from './bigint-attribute';

/** Tokens sent back from an order's receiving wallet to its payer, verified on chain. */
export class Refund extends LeasedModel<Refund> {
  declare id: string;
  declare orderId: string;
  declare merchantId: string;
  declare network: Network;
  declare tokenMint: string;
  /** The order's receiving wallet: it sends the refund and pays the fee. */
  declare fromAddress: string;
  declare toAddress: string | null;
  /** A fresh 32-byte key (base58) naming the refund on chain, like an order's reference. */
  declare tag: string;
  declare amountUnits: bigint;
  /** The order's payment option refunded (0: the order's own fields): its network, token and wallet. */
  declare optionIndex: CreationOptional<number>;
  declare reason: string | null;
  declare status: RefundStatus;
  declare matchedBy: CreationOptional<'tag' | 'amount' | null>;
  declare txId: CreationOptional<string | null>;
  /** SUCCEEDED by a transfer found after it had FAILED (within its late window). */
  declare late: CreationOptional<boolean>;
  declare failureReason: CreationOptional<string | null>;
  declare scanCursor: CreationOptional<string | null>;
  declare addressSetAt: Date | null;
  /** The payer's wallet that signed the address (null: not signed); what it may approve at once is what it paid less these. */
  declare signedBy: CreationOptional<string | null>;
  declare deadlineAt: Date;
  /** A FAILED refund is still looked for, and holds its amount, until then; null: it never had an address. */
  declare lateUntil: CreationOptional<Date | null>;
  /** When the verifier looks next; null: never again. */
  declare nextCheckAt: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: primaryKey(DataTypes.TEXT),
        orderId: orderRef(),
        merchantId: merchantRef(),
        network: required(DataTypes.TEXT),
        tokenMint: required(DataTypes.TEXT),
        fromAddress: required(DataTypes.TEXT),
        toAddress: DataTypes.TEXT,
        tag: required(DataTypes.TEXT),
        amountUnits: bigintColumn('amountUnits', false, true),
        optionIndex: required(DataTypes.SMALLINT, 0),
        reason: DataTypes.TEXT,
        status: required(DataTypes.TEXT),
        matchedBy: DataTypes.TEXT,
        txId: DataTypes.TEXT,
        late: required(DataTypes.BOOLEAN, false),
        failureReason: DataTypes.TEXT,
        scanCursor: DataTypes.TEXT,
        addressSetAt: DataTypes.DATE,
        signedBy: DataTypes.TEXT,
        deadlineAt: required(DataTypes.DATE),
        lateUntil: DataTypes.DATE,
        nextCheckAt: dateNow(),
        ...lease(),
        ...timestamps(),
      },
      { sequelize, tableName: 'refunds' },
    );
  }
}
