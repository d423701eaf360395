import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';
import { ApiError } from '../errors';

/** Who asks for /metrics, as the request tells it. */
export type MetricsClient = {
  authorization: string | undefined;
  /** The TCP peer's address. */
  peer: string | undefined;
  /** The client's address as express reads it: X-Forwarded-For counted as TRUST_PROXY says. */
  ip: string | undefined;
  /** The request names a client further away (X-Forwarded-For, Forwarded, X-Real-IP). */
  forwarded: boolean;
};

const isLoopback = (address: string | undefined) =>
  address !== undefined && (address === '::1' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/i.test(address));

/**
 * A client on this machine, and not through a proxy: a proxy on this machine (trusted by
 * TRUST_PROXY or not) connects from loopback on behalf of clients anywhere.
 */
export const isLoopbackClient = (client: MetricsClient) =>
  !client.forwarded && isLoopback(client.peer) && isLoopback(client.ip);

/**
 * The metrics name the instance's routes, backlog and RPC endpoints: with METRICS_TOKEN set they
 * need it as a bearer token (from anywhere, loopback included); without one they are served to
 * loopback clients only. Both refusals are 401: a token is what opens them.
 */
export function checkMetricsAccess(config: Pick<Config, 'METRICS_TOKEN'>, client: MetricsClient): void {
  const expected = config.METRICS_TOKEN;
  if (expected) {
    const given = Buffer.from(client.authorization?.replace(/^Bearer /i, '') ?? '');
    const want = Buffer.from(expected);
    if (given.length !== want.length || !timingSafeEqual(given, want))
      throw ApiError.unauthenticated('Metrics need Authorization: Bearer <METRICS_TOKEN>');
    return;
  }
  if (!isLoopbackClient(client))
    throw ApiError.unauthenticated(
      'Metrics are served to loopback clients only: set METRICS_TOKEN to scrape them from elsewhere, with Authorization: Bearer <METRICS_TOKEN>',
    );
}
