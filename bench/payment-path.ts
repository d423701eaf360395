import type { Order } from '../contract';
import { nth } from './fixtures';
import { rowFrom, sequential, timedStep, type Report } from './measure';
import type { Ctx } from './stack';

type PayPath<Built> = {
  /** Before every row's name: the network, or nothing for Solana. */
  prefix: string;
  /** How the payer's wallet sends, in the send step's row name. */
  sendCall: string;
  orders: Order[];
  /** GET /pay/tx-request/{ref}?account=… for the i-th order, as its payer's wallet asks. */
  requestTx(order: Order, i: number): Promise<Built>;
  /** The i-th payer signs and sends; the transaction id. */
  signAndSend(built: Built, i: number): Promise<string>;
};

/**
 * A payer's three steps for each order, one order after the other (tx-request, sign and send,
 * submit-tx): a row for each step and one for the three together.
 */
export async function measurePayPath<Built>(ctx: Ctx, report: Report, path: PayPath<Built>): Promise<void> {
  const steps = { txRequest: [] as number[], send: [] as number[], submit: [] as number[] };
  const flow = await sequential(
    `${path.prefix}pay: the three steps, per order`,
    path.orders.length,
    async (i) => {
      const order = nth(path.orders, i, 'order');
      const built = await timedStep(steps.txRequest, () => path.requestTx(order, i));
      const txId = await timedStep(steps.send, () => path.signAndSend(built, i));
      await timedStep(steps.submit, () =>
        ctx.api.json('POST', `/pay/${order.reference}/submit-tx`, { body: { txId }, expect: 202 }),
      );
    },
  );
  report.rows.push(
    rowFrom(`${path.prefix}pay: GET /pay/tx-request/{ref}?account`, steps.txRequest),
    rowFrom(`${path.prefix}pay: payer signs, ${path.sendCall}`, steps.send),
    rowFrom(`${path.prefix}pay: POST /pay/{ref}/submit-tx`, steps.submit),
    flow,
  );
}
