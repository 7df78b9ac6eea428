import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { getServerT } from '~/i18n.server';
import { endSession } from '~/services/auth.server';
import { redirectWithToast } from '~/web/toast.server';

/**
 * Sign-out for the header's 'Abmelden' form (a POST, so it works without
 * JavaScript and nobody can sign you out with a link). Ends the session row,
 * clears the cookie and goes to the start page.
 */
export async function loader() {
  return redirect('/');
}

export async function action({ request }: ActionFunctionArgs) {
  const cookie = await endSession(request);
  const t = await getServerT('account');
  return redirectWithToast('/', { type: 'success', title: t('logout.title'), description: t('logout.text') }, { headers: { 'Set-Cookie': cookie } });
}
