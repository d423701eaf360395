import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The merchant dashboard, served by the service at /dashboard from dashboard/dist (built by
 * dashboard/build.ts on `npm start`). `npx vite dashboard` serves it with hot reload on :5173 and
 * sends the API's paths to a service on :3000 (DASHBOARD_API to point elsewhere).
 */
const api = process.env.DASHBOARD_API ?? 'http://127.0.0.1:3000';
const proxied = [
  '/dashboard/session',
  '/dashboard/summary',
  '/dashboard/exports',
  '/users',
  '/orders',
  '/events',
  '/pay',
];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Every asset a file of its own (hashed, cached for good); nothing inlined into the page.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1024,
  },
  server: {
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: api, changeOrigin: false }])),
  },
});
