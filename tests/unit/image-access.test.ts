import { beforeEach, describe, expect, it, vi } from 'vitest';
import { canViewImage } from '~/models/image-access.server';

const count = vi.fn();
const owner = '0b6f3f0e-8c2a-4f53-9c51-5a3c0c6b2f11';
const key = `profile/${owner}/0123456789abcdef0123456789abcdef`;

/** A request context with this viewer (or a visitor) and an EntityManager that only counts. */
const as = (user: { id: string; isAdmin?: number } | null) => ({ em: { count } as never, user: user as never });

describe('canViewImage', () => {
  beforeEach(() => {
    count.mockReset();
  });

  it('shows a profile picture to its owner and to admins only', async () => {
    count.mockResolvedValue(1);
    expect(await canViewImage(as({ id: owner, isAdmin: 0 }), key)).toBe(true);
    expect(await canViewImage(as({ id: 'someone-else', isAdmin: 1 }), key)).toBe(true);
    expect(await canViewImage(as({ id: 'someone-else', isAdmin: 0 }), key)).toBe(false);
    expect(await canViewImage(as(null), key)).toBe(false);
  });

  it('never shows an object the account does not show as its picture (a raw upload)', async () => {
    count.mockResolvedValue(0);
    expect(await canViewImage(as({ id: owner, isAdmin: 0 }), key)).toBe(false);
    expect(count).toHaveBeenCalledWith(expect.anything(), { id: owner, profileImageUrl: `/images/${key}` });
  });

  it('shows a product image to its owner only (issue 12)', async () => {
    const productKey = 'product/11111111-2222-4333-8444-555555555555/0123456789abcdef0123456789abcdef';
    expect(await canViewImage(as({ id: '11111111-2222-4333-8444-555555555555' }), productKey)).toBe(true);
    expect(await canViewImage(as({ id: '99999999-2222-4333-8444-555555555555' }), productKey)).toBe(false);
    expect(await canViewImage(as(null), productKey)).toBe(false);
  });

  it('shows nothing else', async () => {
    count.mockResolvedValue(1);
    const admin = as({ id: owner, isAdmin: 1 });
    expect(await canViewImage(admin, 'product/abc')).toBe(false);
    expect(await canViewImage(admin, 'upload/abc')).toBe(false);
    expect(await canViewImage(admin, 'profilex/abc')).toBe(false);
    expect(await canViewImage(admin, 'profile/abc')).toBe(false);
  });
});
