import bcrypt from 'bcrypt';
import { exportQuotesOfUser } from './quotes.server';
import { exportCalculatorDefaults } from './calculator-defaults.server';
import { Filament, Marketplace, Packaging, Printer, Project, ShippingProvider, User } from '../entities';
import type { UserContext } from '../services/request-context.server';
import { deleteAccount, type AccountDeletionDeps, type DeletedAccount } from './account-deletion.server';
import { isAdmin } from '../domain/permissions';
import { productImageUrl } from '../domain/product-images';
import { fieldErrors, forbidden, ok, rateLimited, type Result } from '../domain/result';
import { consumeRateLimit } from '../services/rate-limit.server';

/**
 * The owner's own account: 'Konto löschen' (current password required) and
 * 'Meine Daten herunterladen' (GDPR Art. 15 and 20). Always the context's own
 * user, never an id from the input.
 */

export async function deleteOwnAccount(
  ctx: UserContext,
  input: { currentPassword: string },
  deps: AccountDeletionDeps = {},
): Promise<Result<DeletedAccount>> {
  const limit = await consumeRateLimit(ctx.em, 'currentPassword', { ip: ctx.ip, email: `user:${ctx.user.id}` });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  const stored = await ctx.em.fork().findOne(User, { id: ctx.user.id }, { populate: ['password'] });
  const matches = stored ? await bcrypt.compare(input.currentPassword, stored.password) : false;
  if (!stored || !matches) {
    return fieldErrors({ currentPassword: ['auth:messages.invalidPassword'] }, { message: 'auth:messages.invalidPassword', code: 'INVALID_PASSWORD' });
  }
  if (isAdmin(stored)) {
    const [{ admins }] = await ctx.em.execute<{ admins: string }[]>(`select count(*) as admins from users where is_admin = 1`);
    if (Number(admins) <= 1) return forbidden('admin:users.lastAdminSelf');
  }
  return deleteAccount(ctx, { userId: ctx.user.id, by: 'self' }, deps);
}

/** Everything stored about the owner, as one JSON document (no password hash, no tokens). */
export async function exportOwnData(ctx: UserContext, input: { consent: unknown }): Promise<Result<Record<string, unknown>>> {
  const em = ctx.em.fork();
  const user = await em.findOneOrFail(User, { id: ctx.user.id });
  const owner = { user: ctx.user.id };
  const strip = <T extends object>(rows: T[]) =>
    rows.map((row) => {
      const plain = { ...(row as Record<string, unknown>) };
      delete plain.user;
      return plain;
    });
  const [projects, printers, filaments, packaging, shipping, marketplaces] = await Promise.all([
    em.find(Project, owner, { orderBy: { createdAt: 'asc' } }),
    em.find(Printer, owner, { orderBy: { createdAt: 'asc' } }),
    em.find(Filament, owner, { orderBy: { createdAt: 'asc' } }),
    em.find(Packaging, owner, { orderBy: { createdAt: 'asc' } }),
    em.find(ShippingProvider, owner, { orderBy: { createdAt: 'asc' } }),
    em.find(Marketplace, owner, { orderBy: { createdAt: 'asc' } }),
  ]);
  const projectRows = strip(projects).map((project) => {
    const relations = ['filament', 'printer', 'packaging', 'shippingProvider', 'marketplace'];
    const row: Record<string, unknown> = { ...project };
    for (const relation of relations) {
      const value = row[relation] as { id?: string } | null | undefined;
      if (value !== undefined) row[`${relation}Id`] = value?.id ?? null;
      delete row[relation];
    }
    // Bookkeeping of the start's price backfill, not data about the owner; the stored prices themselves stay.
    delete row.pricesStored;
    const imagePath = typeof row.productImagePath === 'string' ? row.productImagePath : null;
    row.productImageUrl = imagePath ? productImageUrl(imagePath) : null;
    return row;
  });
  return ok({
    exportedAt: ctx.now.toISOString(),
    account: {
      id: user.id,
      email: user.email,
      emailVerified: user.emailVerified,
      pendingEmail: user.pendingEmail ?? null,
      firstName: user.firstName ?? null,
      lastName: user.lastName ?? null,
      profileImageUrl: user.profileImageUrl ?? null,
      isPremium: user.isPremium,
      isAdmin: user.isAdmin,
      subscriptionStatus: user.subscriptionStatus ?? null,
      stripeCustomerId: user.stripeCustomerId ?? null,
      stripeSubscriptionId: user.stripeSubscriptionId ?? null,
      createdAt: user.createdAt.toISOString(),
      updatedAt: user.updatedAt.toISOString(),
    },
    projects: projectRows,
    printers: strip(printers),
    filaments: strip(filaments),
    packaging: strip(packaging),
    shippingProviders: strip(shipping),
    marketplaces: strip(marketplaces),
    // Business details and quotes (issue 26 §4).
    ...(await exportQuotesOfUser(em, ctx.user.id, ctx.now)),
    // 'Meine Standardwerte' (issue 24 §4); null when never saved.
    calculatorDefaults: await exportCalculatorDefaults({ ...ctx, em }),
    images: [user.profileImageUrl, ...projectRows.map((row) => row.productImageUrl)].filter((url): url is string => typeof url === 'string'),
    consent: input.consent ?? null,
  });
}
