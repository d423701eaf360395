import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';

/** Where `npm start` (dashboard/build.ts) puts the built dashboard. */
export const DASHBOARD_DIST = fileURLToPath(new URL('../../dashboard/dist', import.meta.url));

/**
 * The dashboard's own policy: its scripts and styles are files of this origin (no inline script or
 * style, no CDN), images may be data: URLs (the refund QR codes it draws), it talks to this origin
 * only and may not be framed.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Hashed file names change with their content: cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>The dashboard is not built</h1>
<p>This service was started without building its dashboard. <code>npm start</code> builds it;
<code>npm run dashboard:build</code> builds it without starting.</p></body></html>`;

/**
 * GET /dashboard and every page under it: the single-page app from dashboard/dist. Its hashed
 * assets are cached for good; index.html is revalidated each time (so a new build is picked up at
 * once) and answers every other path under /dashboard a browser asks for, so each page has its own
 * URL. Mounted after the API: the dashboard's API routes (/dashboard/session, summary, exports)
 * are matched first.
 */
export function dashboardApp(dist: string = DASHBOARD_DIST): Router {
  const router = express.Router();
  const index = path.join(dist, 'index.html');
  router.use('/dashboard', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
    next();
  });
  router.use(
    '/dashboard/assets',
    express.static(path.join(dist, 'assets'), {
      index: false,
      redirect: false,
      fallthrough: true,
      setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE),
    }),
  );
  router.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!/^\/dashboard(\/|$)/.test(req.path) || req.path.startsWith('/dashboard/assets/')) return next();
    // A browser opening a page; an API client (asking for JSON) gets the API's 404 instead.
    if (req.accepts(['html', 'json']) !== 'html') return next();
    if (!existsSync(index)) {
      res.status(503).setHeader('Cache-Control', 'no-store').type('html').send(NOT_BUILT);
      return;
    }
    res.sendFile(
      index,
      { headers: { 'Cache-Control': 'no-cache' }, cacheControl: false, dotfiles: 'deny' },
      (error) => {
        if (error && !res.headersSent) next(error);
      },
    );
  });
  return router;
}
