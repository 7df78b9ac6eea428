import { beforeEach, describe, expect, it, vi } from 'vitest';

const getOptionalUser = vi.hoisted(() => vi.fn());
vi.mock('~/services/auth.server', () => ({ getOptionalUser }));

const { canViewImage } = await import('~/services/image-access.server');
const request = new Request('https://druckpreis.test/images/x');

describe('canViewImage', () => {
  beforeEach(() => getOptionalUser.mockReset());

  it('shows profile pictures to signed-in users only', async () => {
    getOptionalUser.mockResolvedValue({ id: 'u1' });
    expect(await canViewImage(request, 'profile/abc')).toBe(true);
    getOptionalUser.mockResolvedValue(null);
    expect(await canViewImage(request, 'profile/abc')).toBe(false);
  });

  it('shows nothing else (yet)', async () => {
    getOptionalUser.mockResolvedValue({ id: 'u1' });
    expect(await canViewImage(request, 'product/abc')).toBe(false);
    expect(await canViewImage(request, 'upload/abc')).toBe(false);
    expect(await canViewImage(request, 'profilex/abc')).toBe(false);
  });
});
