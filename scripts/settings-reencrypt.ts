import { MikroORM } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../mikro-orm.config';
import { reencryptSettings } from '../app/services/settings-crypto.server';
import { parseEnv } from '../app/lib/env.server';
import { prepareDatabase } from './lib/database';

/**
 * `npm run settings:reencrypt`: moves every stored secret of the admin
 * settings to the newest key (the first in SETTINGS_ENCRYPTION_KEY, else the
 * generated one). Run it after adding a key in front; then the old key may go.
 * Values no key opens are named and left untouched (exit code 1).
 */
async function main() {
  const env = parseEnv();
  const database = await prepareDatabase(env);
  const orm = await MikroORM.init(createOrmConfig(process.env.DATABASE_URL!));
  try {
    const report = await reencryptSettings(orm.em.fork());
    console.log(`[settings] re-encrypted ${report.reencrypted} value(s); ${report.unchanged} already on the newest key`);
    for (const problem of report.failed) {
      console.error(`[settings] ${problem.group}: ${problem.fields.join(', ')} cannot be decrypted with any configured key; left as it is`);
    }
    process.exitCode = report.failed.length ? 1 : 0;
  } finally {
    await orm.close(true);
    await database.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
