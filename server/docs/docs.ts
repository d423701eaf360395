import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';
import { generateOpenApiDocument } from './openapi';

const require = createRequire(import.meta.url);
const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>stablepay API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });`;

/** GET /: what this service is and where to go, for whoever opens its address in a browser. */
const HOME = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>stablepay</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/pay/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/checkout/assets/checkout.css"></head>
<body><div class="page"><main class="card">
<h1>stablepay</h1>
<p>A self-hosted stablecoin payment gateway: USDT and USDC on Solana, USDT on Polygon and Ethereum.
Merchants create payment orders through the API; payers pay on each order's checkout page.</p>
<h2>For merchants</h2>
<ul>
<li><a href="/dashboard">Dashboard</a>: orders, payment links, refunds, wallets, API keys, exports</li>
</ul>
<h2>For developers</h2>
<ul>
<li><a href="/docs">API reference</a> (interactive)</li>
<li><a href="/openapi.json">OpenAPI document</a></li>
</ul>
<h2>For operators</h2>
<ul>
<li><a href="/healthz">/healthz</a>: the process is alive</li>
<li><a href="/readyz">/readyz</a>: the database is reachable</li>
</ul>
</main></div></body></html>`;

/** /openapi.json and an interactive reference at /docs, from local assets only (no CDN). */
export function docsRouter(): Router {
  const document = JSON.stringify(generateOpenApiDocument());
  const router = express.Router();
  router.get('/', (_req, res) => res.type('html').send(HOME));
  router.get('/openapi.json', (_req, res) => res.type('application/json').send(document));
  router.get('/docs', (_req, res) => res.type('html').send(PAGE));
  router.get('/docs/init.js', (_req, res) => res.type('application/javascript').send(INIT));
  router.use('/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1d' }));
  return router;
}
