import type { Order } from '../contract';
import { progress } from './lib/progress';
import { sequential, type Report } from './measure';
import { SIZES } from './settings';
import type { Ctx } from './stack';

/** GET /pay/{ref}/qr.svg and qr.png, over the orders given. */
export async function benchQr(ctx: Ctx, report: Report, orders: Order[]): Promise<void> {
  progress('QR codes');
  const references = orders.slice(0, SIZES.qr).map((o) => o.reference);
  if (references.length < SIZES.qr) throw new Error(`only ${references.length} orders for the QR codes`);
  for (const format of ['svg', 'png'] as const) {
    const get = (i: number) => ctx.api.bytes(`/pay/${references[i % references.length]}/qr.${format}`);
    for (let i = 0; i < SIZES.warmUp; i++) await get(i);
    report.rows.push(await sequential(`GET /pay/{ref}/qr.${format}`, SIZES.qr, get));
  }
}
