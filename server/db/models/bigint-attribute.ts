import { DataTypes, type ModelAttributeColumnOptions, type Model } from 'sequelize';

/** A BIGINT column read and written as a JS bigint (pg hands bigint back as a string). */
export function bigintColumn(name: string, allowNull = false): ModelAttributeColumnOptions<Model> {
  return {
    type: DataTypes.BIGINT,
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
