/**
 * `npm run user:admin -- <email>`: gives an existing account admin rights.
 * Uses DATABASE_URL, else the embedded database (the running app's, or one
 * started just for this when the app is not running).
 */
import pg from 'pg';
import { normalizeEmail } from '../app/entities/user.entity';
import { parseEnv } from '../app/lib/env.server';
import { prepareDatabase } from './lib/database';

async function main(): Promise<number> {
  const email = process.argv[2];
  if (!email || !email.includes('@')) {
    console.error('Usage: npm run user:admin -- <email>');
    return 2;
  }
  const env = parseEnv();
  let stop = async () => {};
  let url = env.DATABASE_URL ?? `postgresql://postgres:postgres@127.0.0.1:${env.EMBEDDED_POSTGRES_PORT}/druckpreis`;
  if (!env.DATABASE_URL && !(await canConnect(url))) {
    const db = await prepareDatabase(env);
    url = process.env.DATABASE_URL!;
    stop = db.stop;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query('update users set is_admin = 1, updated_at = now() where email = $1 returning id', [
      normalizeEmail(email),
    ]);
    if (result.rowCount === 0) {
      console.error(`No account with the address ${normalizeEmail(email)}. Register it first.`);
      return 1;
    }
    console.log(`${normalizeEmail(email)} is now an admin.`);
    return 0;
  } finally {
    await client.end();
    await stop();
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

main().then((code) => process.exit(code), (error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
