import { MikroORM } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../../mikro-orm.config';

/** Applies every pending migration in prisma-free-migrations/; returns their names. */
export async function runMigrations(databaseUrl: string): Promise<string[]> {
  // Migrations are plain SQL; no entity discovery needed (and none loaded twice
  // next to the bundled server's copies).
  const orm = await MikroORM.init({
    ...createOrmConfig(databaseUrl),
    entities: [],
    discovery: { warnWhenNoEntities: false, requireEntitiesArray: false },
  });
  try {
    const applied = await orm.getMigrator().up();
    return applied.map((migration) => migration.name);
  } finally {
    await orm.close(true);
  }
}
