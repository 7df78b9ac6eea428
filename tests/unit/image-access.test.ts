import { beforeEach, describe, expect, it, vi } from 'vitest';

const getOptionalUser = vi.hoisted(() => vi.fn());
const count = vi.hoisted(() => vi.fn());
vi.mock('~/services/auth.server', () => ({
  getOptionalUser,
  isAdmin: (user: { isAdmin?: number }) => user.isAdmin === 1,
}));
vi.mock('~/services/db.server', () => ({ getEm: async () => ({ count }) }));

const { canViewImage } = await import('~/services/image-access.server');
const request = new Request('https://druckpreis.test/images/x');
const owner = '0b6f3f0e-8c2a-4f53-9c51-5a3c0c6b2f11';
const key = `profile/${owner}/0123456789abcdef0123456789abcdef`;

describe('canViewImage', () => {
  beforeEach(() => {
    getOptionalUser.mockReset();
    count.mockReset();
  });

  it('shows a profile picture to its owner and to admins only', async () => {
    count.mockResolvedValue(1);
    getOptionalUser.mockResolvedValue({ id: owner, isAdmin: 0 });
    expect(await canViewImage(request, key)).toBe(true);
    getOptionalUser.mockResolvedValue({ id: 'someone-else', isAdmin: 1 });
    expect(await canViewImage(request, key)).toBe(true);
    getOptionalUser.mockResolvedValue({ id: 'someone-else', isAdmin: 0 });
    expect(await canViewImage(request, key)).toBe(false);
    getOptionalUser.mockResolvedValue(null);
    expect(await canViewImage(request, key)).toBe(false);
  });

  it('never shows an object the account does not show as its picture (a raw upload)', async () => {
    getOptionalUser.mockResolvedValue({ id: owner, isAdmin: 0 });
    count.mockResolvedValue(0);
    expect(await canViewImage(request, key)).toBe(false);
    expect(count).toHaveBeenCalledWith(expect.anything(), { id: owner, profileImageUrl: `/images/${key}` });
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
    getOptionalUser.mockResolvedValue({ id: owner, isAdmin: 1 });
    count.mockResolvedValue(1);
    expect(await canViewImage(request, 'product/abc')).toBe(false);
    expect(await canViewImage(request, 'upload/abc')).toBe(false);
    expect(await canViewImage(request, 'profilex/abc')).toBe(false);
    expect(await canViewImage(request, 'profile/abc')).toBe(false);
  });
});
