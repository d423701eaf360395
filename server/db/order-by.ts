import type { OrderItem } from 'sequelize';

/** Oldest first: by creation time, then by id (rows made in the same instant keep one order). */
export const OLDEST_FIRST: OrderItem[] = [
  ['createdAt', 'ASC'],
  ['id', 'ASC'],
];
