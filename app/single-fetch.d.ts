// Remix's single fetch is on (remix.config.js); this tells the type helpers
// (useLoaderData, useActionData, data()) so loader types are inferred as sent.
import '@remix-run/node';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}
