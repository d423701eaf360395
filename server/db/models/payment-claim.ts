import { DataTypes, type CreationOptional, type Sequelize } from 'sequelize';
import { LeasedModel } from './base-models';
import { required, serialKey, dateNow, timestamps, lease, orderRef } from './columns';
import type { Network } from '../../../contract';
import { bigintColumn } from './bigint-attribute';

/** `x402`: the transaction this service sent as x402 facilitator for the order (server/x402/). */
export type ClaimSource = 'merchant' | 'payer' | 'scanner' | 'x402';
/**
 * PENDING: to be read on chain. VERIFIED: credited (holds its transaction: one order at most).
 * REJECTED: the chain says no. UNPROVEN: a payer's report of a transfer that neither names the order
 * nor pays its exact amount, without the sender's signature: recorded, credits nothing.
 */
export type ClaimStatus = 'PENDING' | 'VERIFIED' | 'REJECTED' | 'UNPROVEN';

/** A transaction id reported for, or found paying, an order; verified against the chain. */
export class PaymentClaim extends LeasedModel<PaymentClaim> {
  declare id: CreationOptional<string>;
  declare orderId: string;
  declare network: Network;
  declare txId: string;
  declare source: ClaimSource;
  declare status: CreationOptional<ClaimStatus>;
  declare amountUnits: CreationOptional<bigint | null>;
  declare reason: CreationOptional<string | null>;
  declare blockTime: CreationOptional<Date | null>;
  declare matchedBy: CreationOptional<'tag' | 'amount' | 'claim' | 'x402' | null>;
  /** The wallet that sent the credited transfer. */
  declare sender: CreationOptional<string | null>;
  /**
   * A payer's proof of control over the sending wallet: the message it signed (the txId exactly as
   * reported) and the signature (the network's form). Null without one.
   */
  declare proofMessage: CreationOptional<string | null>;
  declare proofSignature: CreationOptional<string | null>;
  /** The order's payment option the transfer credits (0: the order's own fields). */
  declare optionIndex: CreationOptional<number>;
  declare attempts: CreationOptional<number>;
  declare nextCheckAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    this.init(
      {
        id: serialKey(),
        orderId: orderRef(),
        network: required(DataTypes.TEXT),
        txId: required(DataTypes.TEXT),
        source: required(DataTypes.TEXT),
        status: required(DataTypes.TEXT, 'PENDING'),
        amountUnits: bigintColumn('amountUnits', true, true),
        reason: DataTypes.TEXT,
        blockTime: DataTypes.DATE,
        matchedBy: DataTypes.TEXT,
        sender: DataTypes.TEXT,
        proofMessage: DataTypes.TEXT,
        proofSignature: DataTypes.TEXT,
        optionIndex: required(DataTypes.SMALLINT, 0),
        attempts: required(DataTypes.INTEGER, 0),
        ...lease(),
        nextCheckAt: dateNow(),
        ...timestamps(),
      },
      { sequelize, tableName: 'payment_claims' },
    );
  }
}
