import type { RequestHandler } from 'express';

/** Payment routes are called from payers' browsers and wallets on any origin; they take no credentials. */
export const openCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept, Accept-Encoding');
  res.setHeader('Access-Control-Max-Age', '86400');
  if (req.method === 'OPTIONS') return void res.status(204).end();
  next();
};
