import { expect } from 'vitest';
import type { ApiResponse, TestServer } from './test-server';

type Settle = (body: unknown, server: TestServer) => Promise<ApiResponse<Record<string, unknown>>>;

/**
 * Settles `body` on one instance and replays it on the other, then presents `raced` four times at
 * once on both: each settles once, every other answer `already_settled` with the first transaction.
 */
export async function expectSettledOnce(
  settle: Settle,
  servers: [TestServer, TestServer],
  payments: { body: unknown; raced: unknown; payer: string },
) {
  const [one, two] = servers;
  const first = await settle(payments.body, one);
  expect(first.body, first.text).toMatchObject({ success: true, payer: payments.payer });
  const again = await settle(payments.body, two);
  expect(again.body).toMatchObject({
    success: false,
    errorReason: 'already_settled',
    transaction: first.body.transaction,
  });
  const answers = await Promise.all([one, two, one, two].map((server) => settle(payments.raced, server)));
  const won = answers.filter((a) => a.body.success === true);
  expect(won, JSON.stringify(answers.map((a) => a.body))).toHaveLength(1);
  for (const lost of answers.filter((a) => a.body.success !== true))
    expect(lost.body).toMatchObject({
      errorReason: 'already_settled',
      transaction: won[0]!.body.transaction,
    });
}
