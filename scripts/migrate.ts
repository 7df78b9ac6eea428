/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database). */
import { parseEnv } from '../app/lib/env.server';
import { prepareDatabase } from './lib/database';

const db = await prepareDatabase(parseEnv());
await db.stop();
