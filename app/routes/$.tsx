import { GeneralErrorBoundary } from '~/components/error-boundary';

// Any unknown path: a German 404 page with status 404.
export function loader() {
  throw new Response('Not Found', { status: 404 });
}

export default function NotFound() {
  return <GeneralErrorBoundary />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
