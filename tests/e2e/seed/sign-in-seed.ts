/**
 * The sign-in fixture's database side, on the app's own MikroORM entities and
 * config (tests/e2e/fixtures.ts). Not imported by the specs directly:
 * Playwright's TypeScript transform cannot compile MikroORM's legacy
 * decorators, so tests/e2e/global-setup.ts bundles this file with esbuild
 * (experimentalDecorators, as tsconfig.json has) into SEED_BUNDLE, which the
 * fixture imports as plain JavaScript.
 */
import { MikroORM } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../../../mikro-orm.config';
import { Session, User } from '../../../app/entities';

/** Matches the session store's idle limit (SESSION_IDLE_MS in app/services/session.server.ts). */
const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;

let orm: Promise<MikroORM> | undefined;

export type SeedUser = {
  email: string;
  passwordHash: string;
  firstName: string;
  isAdmin: boolean;
  isPremium: boolean;
  /** The session id to store; the caller signs it into the cookie. */
  sid: string;
};

/** Creates a confirmed user and a session row for it (the row the server's session storage writes). */
export async function seedSignedInUser(databaseUrl: string, input: SeedUser): Promise<{ id: string }> {
  orm ??= MikroORM.init({ ...createOrmConfig(databaseUrl), pool: { min: 0, max: 2 } });
  const em = (await orm).em.fork();
  const user = em.create(User, {
    email: input.email,
    password: input.passwordHash,
    emailVerified: true,
    firstName: input.firstName,
    lastName: 'Muster',
    isAdmin: input.isAdmin ? 1 : 0,
    isPremium: input.isPremium ? 1 : 0,
  });
  const createdAt = Date.now();
  em.create(Session, { sid: input.sid, sess: { userId: user.id, createdAt }, expire: new Date(createdAt + SESSION_IDLE_MS) });
  await em.flush();
  return { id: user.id };
}

/** Closes the worker's connection pool (called once per Playwright worker, at its end). */
export async function closeSeed(): Promise<void> {
  const opened = orm;
  orm = undefined;
  if (opened) await (await opened).close();
}
