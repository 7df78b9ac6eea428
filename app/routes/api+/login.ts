import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { safeRedirect } from '~/services/auth.server';

/** GET /api/login: the login redirect (spec §2): to /auth, keeping a safe `redirectTo`. */
export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = new URL(request.url).searchParams.get('redirectTo');
  if (!redirectTo) return redirect('/auth');
  return redirect(`/auth?${new URLSearchParams({ redirectTo: safeRedirect(redirectTo) })}`);
}
