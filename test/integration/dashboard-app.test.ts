import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_CSP, DASHBOARD_DIST, dashboardApp } from '../../server/dashboard/static';
import { useTestServer } from '../support/test-server';

/**
 * The dashboard as the service serves it (dashboard/dist, built by test/support/dashboard-setup.ts
 * as `npm start` builds it): its policy, its caching, its deep links, and nothing of the API's
 * shadowed. The app itself is driven in Chromium by the e2e suite.
 */
const server = useTestServer();

type ApiError = { error: { code: string } };
const get = (url: string, accept = 'text/html') => fetch(`${server.url}${url}`, { headers: { accept } });

describe('GET /dashboard', () => {
  it('serves the built app with a CSP that allows no inline script or style, revalidated on each load', async () => {
    const res = await get('/dashboard');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toContain("script-src 'self';");
    expect(DASHBOARD_CSP).toContain("style-src 'self';");
    expect(DASHBOARD_CSP).not.toContain('unsafe');
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).toContain('<div id="root">');
    // Every script is a file of this origin; no inline script, style or event handler.
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toMatch(/ src="\/dashboard\/assets\/[^"]+\.js"/);
    expect(html).not.toMatch(/<style|style="|\son[a-z]+=/i);
    expect(html).not.toMatch(/https?:\/\//); // no CDN, no external font
  });

  it('answers every page under /dashboard with the app, so each page has its own URL', async () => {
    const index = await (await get('/dashboard')).text();
    for (const page of [
      '/dashboard/',
      '/dashboard/orders',
      '/dashboard/orders/9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      '/dashboard/developers',
    ]) {
      const res = await get(page);
      expect(res.status, page).toBe(200);
      expect(await res.text(), page).toBe(index);
    }
  });

  it('caches hashed assets for good and 404s a missing one', async () => {
    const html = await (await get('/dashboard')).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const res = await get(asset, '*/*');
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
    }
    expect((await get('/dashboard/assets/missing-0000.js', '*/*')).status).toBe(404);
  });

  it('leaves the API alone: its dashboard routes answer first, an API client gets the API 404', async () => {
    const session = await get('/dashboard/session', 'application/json');
    expect(session.status).toBe(401);
    expect(((await session.json()) as ApiError).error.code).toBe('UNAUTHENTICATED');
    const unknown = await get('/dashboard/nothing-here', 'application/json');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as ApiError).error.code).toBe('NOT_FOUND');
    expect((await fetch(`${server.url}/dashboard/orders`, { method: 'POST' })).status).toBe(404);
  });

  it('never serves the build stamp or anything outside dist', async () => {
    expect(readdirSync(DASHBOARD_DIST)).toContain('.source-hash');
    const stamp = await get('/dashboard/assets/..%2f.source-hash', '*/*');
    expect(stamp.status).toBe(404);
    const traversal = await get('/dashboard/assets/..%2f..%2fpackage.json', '*/*');
    expect(traversal.status).toBe(404);
  });
});

describe('dashboardApp without a build', () => {
  it('says in words that the dashboard is not built (503), instead of a blank page', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'dashboard-dist-'));
    const app = express().use(dashboardApp(empty));
    const listening = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    const { port } = listening.address() as { port: number };
    try {
      const res = await fetch(`http://127.0.0.1:${port}/dashboard/orders`, {
        headers: { accept: 'text/html' },
      });
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run dashboard:build');
    } finally {
      listening.close();
    }
  });

  it('serves whatever build a dist folder holds (a rebuild is picked up without a restart)', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'dashboard-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>one</title>');
    const app = express().use(dashboardApp(dist));
    const listening = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    const { port } = listening.address() as { port: number };
    const page = () =>
      fetch(`http://127.0.0.1:${port}/dashboard`, { headers: { accept: 'text/html' } }).then((r) => r.text());
    try {
      expect(await page()).toContain('one');
      writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>two</title>');
      expect(await page()).toContain('two');
    } finally {
      listening.close();
    }
  });
});
