import { isDatabaseHealthy } from '~/services/db.server';

/** Liveness for load balancers: 200 when the database answers, 503 otherwise. */
export async function loader() {
  const ok = await isDatabaseHealthy();
  return Response.json({ status: ok ? 'ok' : 'unavailable' }, { status: ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
}
