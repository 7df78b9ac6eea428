import type { ActionFunction, ActionFunctionArgs, LoaderFunction, LoaderFunctionArgs, ServerBuild } from '@remix-run/node';
import authMessages from '../../public/locales/de/auth.json';

/**
 * What a database outage looks like from the outside: 503 with Retry-After
 * and a German text, never a 500. Free of the ORM, so the HTTP server
 * (scripts/lib/server.ts) can use it around the build it loads.
 */

/** Seconds a client is asked to wait while the database is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

const MESSAGE = authMessages.messages.serviceUnavailable;

function unavailableHeaders(contentType: string): HeadersInit {
  return { 'Content-Type': contentType, 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' };
}

/** 503 with Retry-After and a German text; loaders throw it, pages show the error page. */
export function serviceUnavailableResponse(): Response {
  return new Response(MESSAGE, { status: 503, headers: unavailableHeaders('text/plain; charset=utf-8') });
}

/** The JSON API's 503: `{ message }` like every other answer of the API. */
export function apiServiceUnavailableResponse(): Response {
  return new Response(JSON.stringify({ message: MESSAGE }), { status: 503, headers: unavailableHeaders('application/json; charset=utf-8') });
}

// node-postgres / PostgreSQL codes that mean "no database right now", not "bad query".
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE',
  '57P01', '57P02', '57P03', '3D000', '08000', '08001', '08003', '08004', '08006',
]);

// What node-postgres and knex say when the connection of a query already running died with the server
// (it was a 500 for requests in flight when the database was killed). knex's "Transaction query
// already complete" is the next query of a transaction whose connection just died.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|Connection ended unexpectedly|connect ECONNREFUSED|timeout exceeded when trying to connect|Knex: Timeout acquiring a connection|is not queryable|unexpected postmaster exit|terminating connection due to|the database system is (?:starting up|shutting down|in recovery mode)|read ECONNRESET|write EPIPE|Transaction query already complete/i;

/** True for errors that mean the database cannot be reached (an outage), as opposed to a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    current = cause;
  }
  return false;
}

/**
 * Resource routes (the JSON API, files, exports) have no error page: what
 * they throw becomes Remix's bare 500 "Unexpected Server Error", also when
 * the database died under them, which is what the first request after an
 * outage sees (later ones are refused by getEm() with its text 503). Pages
 * are mapped in entry.server.tsx; this wraps every resource route's loader
 * and action once, where the server loads the build, so no route can forget
 * it: an outage answers 503 with Retry-After — JSON `{ message }` under
 * /api/, the German text elsewhere. The app's handleError still hears of the
 * failure, so the requests after it check the database before querying.
 */
export function answerDatabaseOutages(build: ServerBuild): ServerBuild {
  const routes: ServerBuild['routes'] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const { module } = route;
    const isResource = module.default == null && module.ErrorBoundary == null;
    if (isResource && (module.loader || module.action)) {
      routes[id] = {
        ...route,
        module: {
          ...module,
          // A missing loader or action answers 405 in German, not Remix's 400/405 "Unexpected Server Error".
          // OPTIONS runs a route's loader in Remix: a download or API loader would hand out the
          // user's data to it. It answers 405 like the pages instead.
          // A catch-all (an unknown address) keeps its 404 for every method.
          loader: module.loader
            ? route.path?.endsWith('*')
              ? withOutageAnswer(module.loader, build)
              : refuseOptions(withOutageAnswer(module.loader, build), allowedWithLoader(module))
            : answerMethodNotAllowed(allowedWithoutLoader(module)),
          action: module.action ? withOutageAnswer(module.action, build) : answerMethodNotAllowed(['GET', 'HEAD']),
        },
      };
    } else if (!isResource && (module.loader || module.action)) {
      routes[id] = {
        ...route,
        module: {
          ...module,
          ...(module.loader ? { loader: withPageOutageError(module.loader, build) } : {}),
          ...(module.action ? { action: withPageOutageError(module.action, build) } : {}),
        },
      };
    } else routes[id] = route;
  }
  return { ...build, routes };
}

/**
 * A page's loader or action that meets a dead database throws the 503
 * response, so the page's error boundary shows the German outage page with
 * status 503 and Retry-After, for a document and for a client-side
 * navigation's `.data` request alike. (Documents were mapped in
 * entry.server.tsx already; a visitor's first `.data` request got a 500.)
 */
function withPageOutageError<F extends LoaderFunction | ActionFunction>(handler: F, build: ServerBuild): F {
  return withOutage(handler, build, () => {
    throw serviceUnavailableResponse();
  });
}

const METHOD_NOT_ALLOWED = authMessages.messages.methodNotAllowed;

/**
 * The methods an action-only route takes: its `allowedMethods` export (the
 * action refuses every other method with the same list), POST without one.
 */
function allowedWithoutLoader(module: ServerBuild['routes'][string]['module']): string[] {
  const declared = (module as { allowedMethods?: unknown }).allowedMethods;
  return Array.isArray(declared) && declared.every((method) => typeof method === 'string') ? declared : ['POST'];
}

/** The methods a resource route with a loader takes: its `allowedMethods` export, else GET and HEAD (and POST with an action). */
function allowedWithLoader(module: ServerBuild['routes'][string]['module']): string[] {
  const declared = (module as { allowedMethods?: unknown }).allowedMethods;
  if (Array.isArray(declared) && declared.every((method) => typeof method === 'string')) return declared;
  return module.action ? ['GET', 'HEAD', 'POST'] : ['GET', 'HEAD'];
}

function refuseOptions<F extends LoaderFunction>(loader: F, allowed: string[]): F {
  const wrapped = async (args: LoaderFunctionArgs) =>
    args.request.method.toUpperCase() === 'OPTIONS' ? methodNotAllowedResponse(new URL(args.request.url).pathname, allowed) : loader(args as never);
  return wrapped as unknown as F;
}

/** 405 with Allow and the German text: JSON `{ message }` under /api/, plain text elsewhere. */
export function methodNotAllowedResponse(pathname: string, allowed: readonly string[]): Response {
  const api = pathname.startsWith('/api/');
  return new Response(api ? JSON.stringify({ message: METHOD_NOT_ALLOWED }) : METHOD_NOT_ALLOWED, {
    status: 405,
    headers: {
      'Content-Type': api ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      Allow: allowed.join(', '),
    },
  });
}

function answerMethodNotAllowed(allowed: string[]) {
  return async ({ request }: LoaderFunctionArgs | ActionFunctionArgs) => methodNotAllowedResponse(new URL(request.url).pathname, allowed);
}

function withOutageAnswer<F extends LoaderFunction | ActionFunction>(handler: F, build: ServerBuild): F {
  return withOutage(handler, build, (args) =>
    new URL(args.request.url).pathname.startsWith('/api/') ? apiServiceUnavailableResponse() : serviceUnavailableResponse(),
  );
}

/**
 * Runs a loader or action; when it fails for want of a database (or throws the
 * 503 getEm() refuses with), the app's handleError hears of it (so the requests
 * after it check the database before querying) and `answer` decides what the
 * client gets.
 */
function withOutage<F extends LoaderFunction | ActionFunction>(
  handler: F,
  build: ServerBuild,
  answer: (args: LoaderFunctionArgs & ActionFunctionArgs) => Response,
): F {
  const wrapped = async (args: LoaderFunctionArgs & ActionFunctionArgs) => {
    try {
      return await handler(args);
    } catch (error) {
      const refused = error instanceof Response && error.status === 503;
      if (!refused && !isDatabaseUnavailable(error)) throw error;
      if (!refused) build.entry.module.handleError?.(error, args);
      return answer(args);
    }
  };
  return wrapped as unknown as F;
}
