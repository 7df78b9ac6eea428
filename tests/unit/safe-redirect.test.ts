import { describe, expect, it } from 'vitest';
import { safeRedirect } from '~/lib/safe-redirect';
import { safeRedirectPath } from '~/lib/consent';
import { safeRedirect as authSafeRedirect } from '~/services/auth.server';

describe('safeRedirect: the one rule', () => {
  const hostile = ['//evil.example', '/\\evil.example', '\\\\evil.example', '/.//evil.example', '/a/..//evil.example', '/./\\evil.example', '/\t/evil.example', '/\n/evil.example', 'https://evil.example/', 'javascript:alert(1)', 'calculator', '', null, 42];

  it.each(hostile)('refuses %j', (target) => {
    expect(safeRedirect(target, '/fallback')).toBe('/fallback');
    expect(safeRedirectPath(target, '/fallback')).toBe('/fallback');
    expect(authSafeRedirect(target, '/fallback')).toBe('/fallback');
  });

  it('keeps local paths with query and hash, normalised', () => {
    expect(safeRedirect('/calculator?project=1#ergebnis')).toBe('/calculator?project=1#ergebnis');
    expect(safeRedirect('/a/../profile')).toBe('/profile');
    expect(safeRedirectPath('/kontakt')).toBe('/kontakt');
  });
});
