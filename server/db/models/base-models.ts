import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes } from 'sequelize';

// The attributes several models share, declared once; their columns are columns.ts's dateNow(),
// timestamps() and lease(). A model names itself as M so its attributes are inferred from its own declarations.

/** A row stamped createdAt on insert (dateNow()). */
export abstract class CreatedModel<M extends Model> extends Model<
  InferAttributes<M>,
  InferCreationAttributes<M>
> {
  declare createdAt: CreationOptional<Date>;
}

/** A row stamped createdAt and updatedAt (timestamps()). */
export abstract class TimestampedModel<M extends Model> extends CreatedModel<M> {
  declare updatedAt: CreationOptional<Date>;
}

/** A timestamped row a job leases (lease(), server/db/lease.ts): the worker holding it, and until when. */
export abstract class LeasedModel<M extends Model> extends TimestampedModel<M> {
  declare lockedBy: CreationOptional<string | null>;
  declare lockedUntil: CreationOptional<Date | null>;
}
