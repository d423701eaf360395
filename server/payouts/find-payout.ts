import type { Transaction } from 'sequelize';
import type { Payout } from '../db/models';
import type { Deps } from '../deps';
import { findRowOrNotFound } from '../http/find-row';

/** The account's payout, or a 404 (the same for an unknown id and another account's). */
export const findPayout = (
  deps: Pick<Deps, 'db'>,
  where: { id: string; merchantId: string },
  options: { transaction?: Transaction; lock?: boolean } = {},
): Promise<Payout> => findRowOrNotFound(deps.db.models.Payout, 'Payout', where, options);
