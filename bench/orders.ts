import type { Order } from '../contract';
import { createOrder, createOrders } from './fixtures';
import { progress } from './lib/progress';
import { concurrent, sequential, type Report } from './measure';
import { SIZES } from './settings';
import type { Ctx } from './stack';

/** POST /orders, one after the other and some at a time; returns the orders made, for the parts after. */
export async function benchCreateOrders(ctx: Ctx, report: Report): Promise<Order[]> {
  progress('POST /orders');
  await createOrders(ctx, SIZES.warmUp);
  const created: Order[] = [];
  const keep = async () => void created.push(await createOrder(ctx));
  report.rows.push(await sequential('POST /orders, sequential', SIZES.createSequential, keep));
  report.rows.push(
    await concurrent(
      `POST /orders, ${SIZES.concurrency} concurrent`,
      SIZES.createConcurrent,
      SIZES.concurrency,
      keep,
    ),
  );
  return created;
}
