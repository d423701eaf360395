import { DataTypes, type DataType, type Model, type ModelAttributeColumnOptions } from 'sequelize';

// The column shapes the models share. Each call returns a fresh object: Model.init normalises the
// attribute objects it is given in place, so one object must never serve two columns.

type Column = ModelAttributeColumnOptions<Model>;

/** A NOT NULL column, with the database's default when one is given. */
export function required(type: DataType, defaultValue?: unknown): Column {
  return defaultValue === undefined ? { type, allowNull: false } : { type, allowNull: false, defaultValue };
}

/** A primary key: the value the insert gives, else `defaultValue` when one is given (UUIDV4: made by Sequelize). */
export function primaryKey(type: DataType, defaultValue?: unknown): Column {
  return defaultValue === undefined ? { type, primaryKey: true } : { type, primaryKey: true, defaultValue };
}

/** The account a row belongs to (merchants.id). */
export const merchantRef = (): Column => required(DataTypes.UUID);

/** The order a row is about (orders.id). */
export const orderRef = (): Column => required(DataTypes.BIGINT);

/** A bigserial primary key. */
export const serialKey = (): Column => ({ type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true });

/** A timestamp the database fills with now() when the insert leaves it out. */
export const dateNow = (): Column => ({ type: DataTypes.DATE, defaultValue: DataTypes.NOW });

/** createdAt and updatedAt, both now() on insert (updatedAt is stamped by whoever changes the row). */
export const timestamps = () => ({ createdAt: dateNow(), updatedAt: dateNow() });

/** The worker holding a row (server/jobs/lease.ts) and until when. */
export const lease = () => ({ lockedBy: DataTypes.TEXT, lockedUntil: DataTypes.DATE });
