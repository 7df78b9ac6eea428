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

  it('shows a product image to its owner only (issue 12)', async () => {
    const key = 'product/11111111-2222-4333-8444-555555555555/0123456789abcdef0123456789abcdef';
    getOptionalUser.mockResolvedValue({ id: '11111111-2222-4333-8444-555555555555' });
    expect(await canViewImage(request, key)).toBe(true);
    getOptionalUser.mockResolvedValue({ id: '99999999-2222-4333-8444-555555555555' });
    expect(await canViewImage(request, key)).toBe(false);
    getOptionalUser.mockResolvedValue(null);
    expect(await canViewImage(request, key)).toBe(false);
  });

  it('shows nothing else', async () => {
    getOptionalUser.mockResolvedValue({ id: 'u1' });
    expect(await canViewImage(request, 'product/abc')).toBe(false);
    expect(await canViewImage(request, 'upload/abc')).toBe(false);
    expect(await canViewImage(request, 'profilex/abc')).toBe(false);
  });
});
