import { Op, type Attributes, type Model, type ModelStatic, type WhereOptions } from 'sequelize';
import { z } from 'zod';
import { ApiError } from '../errors';

/**
 * The cursor of a newest-first list of rows keyed by (createdAt, id): opaque to clients, the last
 * row of the page base64url-wrapped. Subscriptions and payouts page with it.
 */
const ZCursorBody = z.object({ v: z.literal(1), at: z.string().datetime(), id: z.string().max(40) });

export const encodeNewestFirstCursor = (row: { createdAt: Date; id: string }) =>
  Buffer.from(JSON.stringify({ v: 1, at: row.createdAt.toISOString(), id: row.id })).toString('base64url');

/** The rows after the cursor's (older, or as old with a smaller id); null without a cursor. */
export function afterNewestFirstCursor(cursor: string | undefined): WhereOptions | null {
  if (!cursor) return null;
  let after: { at: Date; id: string };
  try {
    const parsed = ZCursorBody.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    after = { at: new Date(parsed.at), id: parsed.id };
  } catch {
    throw ApiError.field('query.cursor', 'is not a cursor returned by this API');
  }
  return {
    [Op.or]: [{ createdAt: { [Op.lt]: after.at } }, { createdAt: after.at, id: { [Op.lt]: after.id } }],
  };
}

/**
 * One newest-first page of a model's rows matching every condition of `where`, after the cursor's
 * row, and the cursor of the next page (null on the last).
 */
export async function newestFirstPage<M extends Model & { createdAt: Date; id: string }>(
  model: ModelStatic<M>,
  where: WhereOptions[],
  query: { cursor?: string; perPage: number },
): Promise<{ page: M[]; nextCursor: string | null }> {
  const after = afterNewestFirstCursor(query.cursor);
  const rows = await model.findAll({
    where: { [Op.and]: after ? [...where, after] : where } as WhereOptions<Attributes<M>>,
    order: [
      ['createdAt', 'DESC'],
      ['id', 'DESC'],
    ],
    limit: query.perPage + 1,
  });
  const page = rows.slice(0, query.perPage);
  const last = page[page.length - 1];
  return { page, nextCursor: rows.length > query.perPage && last ? encodeNewestFirstCursor(last) : null };
}
