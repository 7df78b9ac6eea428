import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MetadataProvider, Utils, type EntityMetadata } from '@mikro-orm/postgresql';
import { allEntities } from './app/entities/index';

/**
 * MikroORM's default ReflectMetadataProvider reads TypeScript's
 * `design:type` decorator metadata, which esbuild (tsx, vite, vitest) never
 * emits. This provider reads only what the decorators state, and fails
 * discovery with a clear message when a property has no explicit `type`.
 */
export class ExplicitTypesMetadataProvider extends MetadataProvider {
  loadEntityMetadata(meta: EntityMetadata): void {
    for (const prop of meta.props) {
      if (typeof prop.entity === 'string') {
        prop.type = prop.entity;
      } else if (prop.entity) {
        const target = prop.entity();
        prop.type = Array.isArray(target)
          ? target.map((t) => Utils.className(t)).sort().join(' | ')
          : Utils.className(target);
      } else if (!prop.type && !(prop.enum && prop.items?.length)) {
        throw new Error(
          `${meta.className}.${prop.name} needs an explicit \`type\` (or \`entity\`): no decorator metadata is emitted here`,
        );
      }
    }
  }
}

/**
 * One config for the app, the migrator and the CLI. Entities are listed
 * explicitly (no folder discovery), so the bundled server and tsx scripts
 * see the same set.
 */
export function createOrmConfig(clientUrl: string) {
  return defineConfig({
    clientUrl,
    entities: allEntities,
    metadataProvider: ExplicitTypesMetadataProvider,
    extensions: [Migrator],
    // The migrator loads prisma-free-migrations/*.ts with import(). MikroORM's
    // own import() lives in node_modules, where Node cannot load .ts under
    // vitest; an import() written here goes through whatever loads this file
    // (tsx's loader, vite-node in tests).
    dynamicImportProvider: (id: string) => import(/* @vite-ignore */ id),
    discovery: { requireEntitiesArray: true },
    // Money and rates are numeric columns; the entities map them to JS numbers.
    forceUtcTimezone: true,
    migrations: {
      // start.ts logs the applied names itself.
      silent: true,
      tableName: 'mikro_orm_migrations',
      path: './prisma-free-migrations',
      pathTs: './prisma-free-migrations',
      glob: '!(*.d).{js,ts}',
      transactional: true,
      allOrNothing: true,
      snapshot: true,
      // One committed snapshot whatever the database is called (the default
      // name includes the database name, and every test database would leave
      // its own file here). The migrator rewrites it after `up()` from the
      // migrated schema; the committed copy is that form, so it stays unchanged.
      snapshotName: '.snapshot-druckpreis',
      emit: 'ts',
    },
    debug: false,
  });
}

// Used by the MikroORM CLI (`npm run db:migration:create`).
export default createOrmConfig(
  process.env.DATABASE_URL ?? 'postgresql://postgres:postgres@127.0.0.1:5433/druckpreis',
);
