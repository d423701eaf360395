import { DataTypes, type ModelAttributeColumnOptions, type Model } from 'sequelize';

/**
 * An integer column read and written as a JS bigint (pg hands bigint and numeric back as strings):
 * BIGINT, or numeric(78,0) for token base units (`units: true`), which may exceed 2^63 at 18 decimals.
 */
export function bigintColumn(
  name: string,
  allowNull = false,
  units = false,
): ModelAttributeColumnOptions<Model> {
  return {
    type: units ? DataTypes.DECIMAL(78, 0) : DataTypes.BIGINT,
    allowNull,
    get(this: Model) {
      const raw = this.getDataValue(name) as string | bigint | null;
      return raw === null || raw === undefined ? raw : BigInt(raw);
    },
    set(this: Model, value: bigint | null) {
      this.setDataValue(name, value === null ? null : value.toString());
    },
  };
}
