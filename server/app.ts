import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { contract, type RouteAuth } from '../contract';
import { accountRouter } from './account/account.router';
import { authRouter } from './auth/auth.router';
import { setupCredential, setupTokenOf } from './auth/two-factor/setup-auth';
import { twoFactorRouter } from './auth/two-factor/two-factor.router';
import { createKeyUsage } from './auth/api-key-usage';
import { checkRoutePermission, checkScope } from './auth/check-scope';
import { createAuthenticator } from './auth/passport';
import { createSessionAuthenticator, sessionCookie } from './auth/session-auth';
import { dashboardRouter } from './dashboard/dashboard.router';
import { dashboardApp } from './dashboard/static';
import { apiKeysRouter } from './api-keys/api-keys.router';
import { checkoutAssets, checkoutErrorPage, checkoutPageRoute } from './checkout/checkout.router';
import { deliveriesRouter, emailDeliveriesRouter } from './deliveries/deliveries.router';
import { eventLogRouter } from './event-log/event-log.router';
import type { Deps } from './deps';
import { docsRouter } from './docs/docs';
import { healthRouter } from './health/health.router';
import { membersRouter } from './members/members.router';
import { networksRouter } from './networks/networks.router';
import { OPEN_CORS_PATHS, openCors } from './http/cors';
import { ApiError } from './errors';
import { errorHandler, fromRequestValidation, notFoundHandler } from './http/error-handler';
import { UNLIMITED_PATHS } from './http/rate-limit-headers';
import { createRateLimits } from './http/rate-limits';
import { rejectUnstorableText } from './http/reject-unstorable-text';
import { requestLogs } from './http/request-log';
import { routeBuckets } from './http/route-buckets';
import { securityHeaders } from './http/security-headers';
import { ordersRouter } from './orders/orders.router';
import { ownOrdersOnly } from './orders/own-orders';
import { claimsRouter } from './payments/claims.router';
import { payRouter } from './pay/pay.router';
import { profileRouter } from './profile/profile.router';
import { manageRouter } from './subscriptions/manage.router';
import { subscriptionsRouter } from './subscriptions/subscriptions.router';
import { payoutsRouter } from './payouts/payouts.router';
import { refundsRouter } from './refunds/refunds.router';
import { sandboxRouter } from './sandbox/sandbox.router';
import { x402Router } from './x402/x402.router';
import { sandboxGuard } from './sandbox/sandbox-guard';
import { walletsRouter } from './wallets/wallets.router';

export const MAX_BODY = '100kb';

export function createApp(deps: Deps): Express {
  const { config, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);

  app.use(requestLogs(logger));
  app.use(securityHeaders());
  app.use((req, res, next) => {
    const stop = deps.metrics.httpDuration.startTimer();
    res.on('finish', () => {
      // The contract's path when a route matched; never the raw URL (unbounded label values).
      const route =
        (req as typeof req & { tsRestRoute?: { path: string } }).tsRestRoute?.path ??
        (res.statusCode === 404 ? 'unmatched' : 'other');
      deps.metrics.httpRequests.inc({ method: req.method, route, status: String(res.statusCode) });
      stop({ method: req.method, route });
    });
    next();
  });
  app.use(OPEN_CORS_PATHS, openCors);
  app.use(express.json({ limit: MAX_BODY, type: ['application/json', 'application/*+json'] }));
  app.use(rejectUnstorableText);
  const limits = createRateLimits(config, deps.db.sequelize);
  app.post('/auth/login', limits.login);
  app.post('/dashboard/session', limits.login);
  app.post('/users/me/password', limits.login);
  app.post('/pay/refunds/:refundId/address', limits.refundAddress);

  const authenticate = createAuthenticator(deps.tokens, {
    clock: deps.clock,
    merchants: deps.cache.merchants,
    members: deps.cache.members,
    apiKeys: deps.cache.apiKeys,
    keyUsed: createKeyUsage(deps.db.sequelize, deps.clock, logger),
  });
  const authenticateSession = createSessionAuthenticator({ ...deps, ...deps.cache });
  // The Authorization header wins; without one, the dashboard's session cookie is the credential.
  const credential = (req: Request, res: Response, next: (error?: unknown) => void) =>
    !req.headers.authorization && sessionCookie(req, config)
      ? authenticateSession(req, res, next)
      : authenticate(req, res, next);
  // A two-factor setup token opens the enrolment routes alone (their metadata says `setupToken`).
  const credentialOrSetup = (
    req: Request,
    res: Response,
    auth: RouteAuth,
    next: (error?: unknown) => void,
  ) => {
    const setupToken = setupTokenOf(req);
    if (!setupToken) return credential(req, res, next);
    if (auth.auth !== 'merchant' || !auth.setupToken)
      return next(ApiError.unauthenticated('A setup token opens only the two-factor enrolment: enrol first'));
    setupCredential({ ...deps, ...deps.cache }, setupToken).then((user) => {
      req.user = user;
      next();
    }, next);
  };
  const unlimited = new Set<string>(UNLIMITED_PATHS);
  const ownOrders = ownOrdersOnly(deps);
  // Auth is route metadata in the contract, checked once here for every route that declares it: the
  // credential, an API key's scope, then the member's permission (a Set lookup on what the credential
  // loaded); merchants' calls are limited per merchant, everything else per client address.
  const authAndLimits = (req: Request, res: Response, next: NextFunction) => {
    const route = (req as Request & { tsRestRoute?: { metadata?: RouteAuth; path: string } }).tsRestRoute;
    const auth = route?.metadata;
    if (auth?.auth !== 'merchant')
      return unlimited.has(req.path) ? next() : limits.publicRoute(req, res, next);
    credentialOrSetup(req, res, auth, (error?: unknown) => {
      if (error) return next(error);
      const refused =
        checkScope(req.user!.apiKey, auth.scope, auth.apiKeyOnly) ??
        checkRoutePermission(req.user!, auth, req.body);
      if (refused) return next(refused);
      limits
        .merchant(req.user!.merchant.id, res)
        .then(() => ownOrders(req, route!.path))
        .then(() => next(), next);
    });
  };

  // Before the routes and their authentication: not a sandbox, every /sandbox route is a plain 404.
  app.use('/sandbox', sandboxGuard(deps));

  const server = initServer();
  const routes = routeBuckets();
  createExpressEndpoints(
    contract,
    server.router(contract, {
      auth: authRouter(deps),
      twoFactor: twoFactorRouter(deps, limits),
      account: accountRouter(deps),
      apiKeys: apiKeysRouter(deps),
      members: membersRouter(deps),
      dashboard: dashboardRouter(deps, limits),
      orders: ordersRouter(deps),
      claims: claimsRouter(deps),
      deliveries: deliveriesRouter(deps),
      emails: emailDeliveriesRouter(deps),
      events: eventLogRouter(deps),
      profile: profileRouter(deps, limits),
      wallets: walletsRouter(deps),
      pay: { ...payRouter(deps), ...checkoutPageRoute(deps) },
      refunds: refundsRouter(deps),
      subscriptions: subscriptionsRouter(deps),
      payouts: payoutsRouter(deps),
      health: healthRouter(deps),
      networks: networksRouter(deps),
      sandbox: sandboxRouter(deps),
      x402: x402Router(deps),
    }),
    // Registered in buckets by method and first path segment (server/http/route-buckets.ts).
    routes.registrar as unknown as Express,
    {
      logInitialization: false,
      jsonQuery: false,
      // Responses are parsed by their schemas: a handler cannot drift from the contract or leak a
      // field. Every test runs with it; production leaves it to RESPONSE_VALIDATION (see config).
      responseValidation: config.responseValidation,
      globalMiddleware: [authAndLimits as never],
      requestValidationErrorHandler: (err, _req, _res, next) => next(fromRequestValidation(err)),
    },
  );
  app.use(routes.dispatch, ...routes.after);

  // After the API: every API request would otherwise be matched against these routes first.
  app.use(docsRouter());
  app.use(checkoutAssets());
  app.use(manageRouter(deps, limits.publicRoute));
  app.use(dashboardApp());
  app.use(notFoundHandler);
  app.use(checkoutErrorPage(deps));
  app.use(errorHandler(logger));
  return app;
}
