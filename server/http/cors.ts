import type { RequestHandler } from 'express';

/** Where openCors is mounted (server/app.ts), as the OpenAPI document says. */
export const OPEN_CORS_PATHS = ['/pay', '/checkout', '/networks'];

/**
 * Payment routes (and the public list of networks) are called from payers' browsers and wallets on
 * any origin; they take no credentials.
 * Their images (QR codes, the wallet icon) are embedded by merchants' pages and wallets, so the
 * resource policy helmet sets (same-origin, which browsers enforce on <img>) is relaxed here.
 */
export const openCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept, Accept-Encoding');
  res.setHeader(
    'Access-Control-Expose-Headers',
    'X-Request-Id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset',
  );
  res.setHeader('Access-Control-Max-Age', '86400');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  if (req.method === 'OPTIONS') return void res.status(204).end();
  next();
};
