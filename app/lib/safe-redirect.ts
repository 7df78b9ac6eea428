/**
 * The one rule for "where to go next" values taken from a request (sign-in's
 * `redirectTo`, the cookie dialog's return path): a local path of this site,
 * or the fallback. Browser-safe (no Node imports).
 *
 * Refused: anything not starting with exactly one '/', every protocol-relative
 * form ('//host', '/\host', '\\host'), backslashes anywhere (browsers read
 * them as '/'), control characters (URL parsers drop tabs and newlines, so
 * '/\t/host' would become '//host'), and paths that only normalise to a
 * protocol-relative one ('/.//host', '/a/..//host'). What is returned is the
 * normalised path, so what was checked is what the browser gets.
 */
export function safeRedirect(to: unknown, fallback = '/calculator'): string {
  if (typeof to !== 'string' || to.length === 0 || to.length > 2048) return fallback;
  if (!to.startsWith('/') || to.startsWith('//') || to.includes('\\')) return fallback;
  if (/[\u0000-\u001f\u007f]/.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, 'http://local.invalid');
  } catch {
    return fallback;
  }
  if (url.origin !== 'http://local.invalid') return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can collapse into '//host' once normalised.
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return fallback;
  return path;
}
