/**
 * What the admin area's operations answer and its tabs show (models/admin*.server.ts build these,
 * components/admin/ render them): one shape for both sides. Browser-safe, types only.
 */

export type AdminUserRow = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  emailVerified: boolean;
  isPremium: number;
  isAdmin: number;
  subscriptionStatus: string | null;
  createdAt: string;
  projectCount: number;
};

/** `totalExact: false`: a search matched more than `total` users (they are counted only up to a cap). */
export type AdminUserPage = { users: AdminUserRow[]; total: number; totalExact: boolean; page: number; pageSize: number; search: string };

export type AdminStatus = {
  users: { total: number; confirmed: number; premium: number; admins: number };
  projects: number;
  outbox: { pending: number; failed: number; lastError: string | null; lastSentAt: string | null };
  contact: { total: number; lastWeek: number; priority: number };
  configured: {
    payment: boolean;
    /** Where the values in effect come from: the admin settings, the environment (STRIPE_*, GOOGLE_ADS_*), or nowhere. */
    paymentSource: 'settings' | 'env' | 'none';
    ads: 'off' | 'test' | 'on' | 'missing';
    adsSource: 'settings' | 'env' | 'none';
    mail: 'settings' | 'env' | 'file';
    mailWorking: boolean | null;
    contact: { address: string; source: 'settings' | 'env' | 'firstAdmin' } | null;
    contactEnabled: boolean;
  };
  /** Settings groups with a value no key opens (admin-settings.server.ts `SettingsProblem`). */
  settingsProblems: { group: string; fields: string[] }[];
  operatorMissing: boolean;
  database: { ok: boolean; latencyMs: number };
  storage: { kind: 's3' | 'local'; ok: boolean; error?: string };
  version: string;
};

export type AuditPage = {
  entries: { id: string; createdAt: string; actorEmail: string; action: string; target: string | null; details: Record<string, unknown> }[];
  page: number;
  total: number;
  pageSize: number;
};
