import { Migrator } from '@mikro-orm/migrations';
import { defineConfig } from '@mikro-orm/postgresql';
import { allEntities } from './app/entities/index';

/**
 * One config for the app, the migrator and the CLI. Entities are listed
 * explicitly (no folder discovery), so the bundled server and tsx scripts
 * see the same set.
 */
export function createOrmConfig(clientUrl: string) {
  return defineConfig({
    clientUrl,
    entities: allEntities,
    extensions: [Migrator],
    discovery: { requireEntitiesArray: true },
    // Money and rates are numeric columns; the entities map them to JS numbers.
    forceUtcTimezone: true,
    migrations: {
      tableName: 'mikro_orm_migrations',
      path: './prisma-free-migrations',
      pathTs: './prisma-free-migrations',
      glob: '!(*.d).{js,ts}',
      transactional: true,
      allOrNothing: true,
      snapshot: true,
      emit: 'ts',
    },
    debug: false,
  });
}

// Used by the MikroORM CLI (`npm run db:migration:create`).
export default createOrmConfig(
  process.env.DATABASE_URL ?? 'postgresql://postgres:postgres@127.0.0.1:5433/druckpreis',
);
