/**
 * `npm run bench`: serves the production build on a throwaway embedded
 * PostgreSQL, then measures on loopback with autocannon at a fixed
 * concurrency, and the gzipped JavaScript a first visit to /calculator loads;
 * plus the slicer import's figures (scripts/lib/slicer-bench.ts).
 * A script, not a test: it prints figures and asserts nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import autocannon from 'autocannon';
import { chromium } from '@playwright/test';
import pg from 'pg';
import { MikroORM } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../mikro-orm.config';
import { storeMissingProjectPrices } from '../app/models/project-prices.server';
import { buildIfNeeded } from './lib/build-if-needed';
import { CLIENT_MANIFEST, FIRST_VISIT_BUDGET_BYTES, formatFirstVisitJs, measureFirstVisitJs } from './lib/first-visit-js';
import { benchmarkSlicerRead, benchmarkSlicerUpload } from './lib/slicer-bench';
import { waitForHealthy } from './lib/wait-for-healthy';

const PORT = Number(process.env.BENCH_PORT ?? 3290);
const BASE = `http://127.0.0.1:${PORT}`;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
// Load before each measurement. A fresh worker needs about ten seconds of it before V8 has optimised the
// hot paths and sized its heap: measured from a cold start, p99 is start-up (about 1.5x the steady state).
const WARM_UP = Number(process.env.BENCH_WARM_UP_SECONDS ?? 10);
// Overridable so a bench can run beside other servers on the machine.
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? PORT + 1);
const DATA_DIR = process.env.BENCH_DATA_DIR ?? 'tests/.tmp/bench';

const PROJECT_SEARCH = 'nr. 4711';
const USER_SEARCH = 'nutzer4711@';
const SHARED_LINK =
  '/calculator?projectName=Vase&quantity=4&filamentWeight=62%2C5&printTimeHours=5&printTimeMinutes=15&filamentPricePerKg=22%2C9&marketplaceFeePercent=6%2C5&targetPrice=39%2C90';

type Account = 'library' | 'printers' | 'projects1k' | 'projects100k' | 'admin100k';
type Target = { name: string; path: string; unique?: boolean; signedIn?: Account };
const targets: Target[] = [
  { name: 'GET /calculator', path: '/calculator' },
  { name: 'GET /calculator?<inputs>', path: SHARED_LINK },
  // Every request a calculation nobody made before: the render cache never hits.
  { name: 'GET /calculator?<new inputs>', path: SHARED_LINK, unique: true },
  // A signed-in seller with 20 items in each library: never the visitor page cache; the five pickers load.
  { name: 'GET /calculator, signed in (20/kind)', path: '/calculator', signedIn: 'library' },
  // The fixed cost of any signed-in page (session, user, root loader, the cached render): a baseline for the others.
  { name: 'GET /premium, signed in', path: '/premium', signedIn: 'library' },
  // A seller with 200 printers: the library page's queries do not grow with the list.
  { name: 'GET /printers, 200 printers', path: '/printers', signedIn: 'printers' },
  // Issue 12 §6: the first page (24 cards, each priced by the engine) of a seller with 1,000 projects…
  { name: 'GET /projects, 1,000 projects', path: '/projects', signedIn: 'projects1k' },
  // …and a substring search among 100,000 (trigram index; a few matches).
  { name: 'GET /projects?q=, 100,000 projects', path: `/projects?q=${encodeURIComponent(PROJECT_SEARCH)}`, signedIn: 'projects100k' },
  // Issue 20: the admin's users tab among 100,000 accounts: the newest page, and a search (trigram index).
  { name: 'GET /admin?tab=users, 100,000 users', path: '/admin?tab=users', signedIn: 'admin100k' },
  { name: 'GET /admin?tab=users&q=, 100,000 users', path: `/admin?tab=users&q=${encodeURIComponent(USER_SEARCH)}`, signedIn: 'admin100k' },
  { name: 'GET /api/admin/users?search=, 100,000', path: `/api/admin/users?search=${encodeURIComponent(USER_SEARCH)}`, signedIn: 'admin100k' },
];
const ACCOUNT = { email: `bench-${Date.now()}@example.com`, password: 'Rechner-Bench-2026' };
const PRINTERS_ACCOUNT = { email: `bench-printers-${Date.now()}@example.com`, password: 'Rechner-Bench-2026' };
const cookies: Partial<Record<Account, string>> = {};
// BENCH_ONLY=projects,printers: only the targets whose name contains one of them (the browser and sign-in figures are skipped).
// BENCH_ONLY=slicer: only the slicer import's figures (the no-JS upload and the 500 MB summary read).
const ONLY = process.env.BENCH_ONLY ?? '';
const SLICER_ONLY = ONLY === 'slicer';

async function main() {
  rmSync(DATA_DIR, { recursive: true, force: true });
  // The JavaScript figure reads the build's manifest, which a build from before it was kept lacks.
  buildIfNeeded({ force: !existsSync(CLIENT_MANIFEST) });
  const server = spawn('npx', ['tsx', 'scripts/start.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      EMBEDDED_POSTGRES_PORT: String(PG_PORT),
      LOG_REQUESTS: 'false',
      MAIL_WORKER: 'off',
      // The sign-in benchmark repeats one account far beyond the real limits.
      RATE_LIMIT_FACTOR: '100000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  try {
    await waitForHealthy(BASE);
    // First, while the workers' memory is not yet shaped by the load tests.
    if (!ONLY || SLICER_ONLY) await benchmarkSlicerUpload(BASE, server.pid!);
    const chosen = SLICER_ONLY ? [] : targets.filter((target) => ONLY.split(',').some((part) => target.name.includes(part)));
    const needed = new Set(chosen.map((target) => target.signedIn).filter(Boolean));
    if (needed.has('library')) cookies.library = await createAccount(ACCOUNT, { printers: 20, others: 20 });
    if (needed.has('printers')) cookies.printers = await createAccount(PRINTERS_ACCOUNT, { printers: 200, others: 0 });
    if (needed.has('projects1k')) cookies.projects1k = await createAccount(projectsAccount('1k'), { printers: 0, others: 0, projects: 1_000 });
    if (needed.has('admin100k')) {
      cookies.admin100k = await createAccount(
        { email: `bench-admin-${Date.now()}@example.com`, password: 'Rechner-Bench-2026' },
        { printers: 0, others: 0, users: 100_000, admin: true },
      );
    }
    if (needed.has('projects100k')) {
      cookies.projects100k = await createAccount(projectsAccount('100k'), { printers: 0, others: 0, projects: 100_000 });
    }
    // The inserted rows vacuumed and analysed now, as a running database's would have been long ago:
    // otherwise autovacuum works through them during the first measurements.
    if (needed.size) await vacuumAnalyze();
    if (needed.has('projects100k')) await explainProjectSearch();
    if (chosen.length) {
      console.log(`Loopback, ${CONNECTIONS} concurrent connections, ${DURATION} s each (after ${WARM_UP} s of the same load)\n`);
      console.log('target                            req/s     p50 ms   p99 ms   errors   CPU ms/req (app + db)');
    }
    for (const target of chosen) {
      await run(target, WARM_UP);
      const cpuBefore = serverCpuMs(server.pid!);
      const result = await run(target, DURATION);
      const cpuAfter = serverCpuMs(server.pid!);
      const perRequest = (part: 'app' | 'db') => (cpuAfter[part] - cpuBefore[part]) / Math.max(1, result.requests.total);
      const cpu = `${(perRequest('app') + perRequest('db')).toFixed(2)} (${perRequest('app').toFixed(2)} + ${perRequest('db').toFixed(2)})`;
      console.log(
        `${target.name.padEnd(33)} ${result.requests.average.toFixed(0).padStart(6)}   ${String(result.latency.p50).padStart(6)}   ${String(result.latency.p99).padStart(6)}   ${String(result.errors + result.non2xx).padStart(6)}   ${cpu.padStart(20)}`,
      );
    }
    if (!ONLY) {
      await reportJavaScript('/calculator');
      await benchmarkLiveRecalculation();
      await benchmarkSignIn();
    }
    if (!ONLY || SLICER_ONLY) await benchmarkSlicerRead();
  } finally {
    process.kill(-server.pid!, 'SIGTERM');
  }
}

let counter = 0;
/**
 * Live recalculation in Debian's Chromium: time from a keystroke's input event
 * to the new result in the DOM, against one frame (16.7 ms at 60 Hz).
 */
async function benchmarkLiveRecalculation() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${BASE}/calculator`);
    const input = page.locator('#calculator-form input[name="filamentWeight"]');
    await input.focus(); // fetches the live-calculation chunk
    await page.waitForTimeout(300);
    const timings = await page.evaluate(async () => {
      const field = document.querySelector<HTMLInputElement>('#calculator-form input[name="filamentWeight"]')!;
      const output = document.querySelector('[data-result="filamentCost"]')!;
      const samples: number[] = [];
      for (let i = 0; i < 40; i++) {
        const changed = new Promise<number>((resolve) => {
          const observer = new MutationObserver(() => {
            observer.disconnect();
            resolve(performance.now());
          });
          observer.observe(output, { characterData: true, childList: true, subtree: true });
        });
        const started = performance.now();
        field.value = String(30 + i);
        field.dispatchEvent(new Event('input', { bubbles: true }));
        samples.push((await changed) - started);
      }
      return samples.sort((a, b) => a - b);
    });
    const at = (q: number) => timings[Math.min(timings.length - 1, Math.floor(q * timings.length))].toFixed(1);
    console.log(`\nLive recalculation (keystroke → result in the DOM), ${timings.length} keystrokes:`);
    console.log(`  p50 ${at(0.5)} ms   p95 ${at(0.95)} ms   max ${at(1)} ms   (one frame at 60 Hz: 16.7 ms)`);
  } finally {
    await browser.close();
  }
}

/**
 * Sign-ins: POST /api/auth/login with a confirmed account. bcrypt (cost 12)
 * dominates, so this runs at a lower concurrency than the page loads.
 */
async function benchmarkSignIn() {
  const { email, password } = ACCOUNT;
  const connections = 4;
  const result = await autocannon({
    url: `${BASE}/api/auth/login`,
    method: 'POST',
    connections,
    duration: DURATION,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  console.log(`\nSign-in (POST /api/auth/login, bcrypt cost 12), ${connections} concurrent, ${DURATION} s:`);
  console.log(
    `  ${result.requests.average.toFixed(1)} sign-ins/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   non-2xx ${result.non2xx + result.errors}`,
  );
}

/**
 * A confirmed account (confirmed straight in the database) with library items
 * inserted by SQL, signed in once: its session cookie.
 */
function projectsAccount(label: string) {
  return { email: `bench-projects-${label}-${Date.now()}@example.com`, password: 'Rechner-Bench-2026' };
}

async function vacuumAnalyze() {
  const db = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${PG_PORT}/druckpreis` });
  await db.connect();
  await db.query('vacuum analyze');
  await db.end();
}

/** The plan of the search's page query (issue 12 §6: it must use an index, not scan the user's rows). */
async function explainProjectSearch() {
  const db = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${PG_PORT}/druckpreis` });
  await db.connect();
  const { rows: users } = await db.query<{ user_id: string }>('select user_id from projects group by user_id order by count(*) desc limit 1');
  const { rows } = await db.query(
    `explain analyze select * from projects where user_id = $1 and name ilike $2 order by updated_at desc, id desc limit 25`,
    [users[0].user_id, `%${PROJECT_SEARCH}%`],
  );
  await db.end();
  console.log(`EXPLAIN of the search (100,000 projects):\n${rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n')}\n`);
}

async function createAccount(
  account: { email: string; password: string },
  items: { printers: number; others: number; projects?: number; users?: number; admin?: boolean },
): Promise<string> {
  const { email, password } = account;
  const register = await fetch(`${BASE}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, confirmPassword: password, firstName: 'Bench', lastName: 'Mark' }),
  });
  if (!register.ok) throw new Error(`register failed: ${register.status} ${await register.text()}`);
  const db = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${PG_PORT}/druckpreis` });
  await db.connect();
  const { rows } = await db.query<{ id: string }>('update users set email_verified = true where email = $1 returning id', [email]);
  const userId = rows[0].id;
  await db.query(
    `insert into printers (user_id, name, brand, wattage, cost, lifetime_hours) select $1, 'Drucker ' || g, 'Marke', 150 + g, 300 + g, 3000 from generate_series(1, $2::int) g`,
    [userId, items.printers],
  );
  const others = [
    `insert into filaments (user_id, name, material, price_per_kg) select $1, 'Filament ' || g, 'PLA', 20 + g from generate_series(1, $2::int) g`,
    `insert into packaging (user_id, name, cost) select $1, 'Karton ' || g, 0.5 + g / 100.0 from generate_series(1, $2::int) g`,
    `insert into shipping_providers (user_id, name, base_cost) select $1, 'Versand ' || g, 4 + g / 10.0 from generate_series(1, $2::int) g`,
    `insert into marketplaces (user_id, name, percentage_fee, fixed_fee) select $1, 'Marktplatz ' || g, g / 200.0, 0.3 from generate_series(1, $2::int) g`,
  ];
  for (const sql of others) await db.query(sql, [userId, items.others]);
  if (items.admin) await db.query('update users set is_admin = 1 where id = $1', [userId]);
  if (items.users) {
    // Other accounts for the admin's users tab: 'nutzer4711@example.de', one a minute back in time.
    await db.query(
      `insert into users (email, password, email_verified, first_name, last_name, created_at, updated_at)
       select 'nutzer' || g || '@example.de', 'x', g % 3 <> 0, 'Vorname' || g, 'Nachname' || g, now() - g * interval '1 minute', now() - g * interval '1 minute'
       from generate_series(1, $1::int) g`,
      [items.users],
    );
  }
  if (items.projects) {
    // Names like 'Vase Nr. 4711', one change a minute back in time.
    await db.query(
      `insert into projects (user_id, name, quantity, filament_weight, filament_price_per_kg, print_time, printer_wattage, electricity_rate,
         preparation_time, post_processing_time, hourly_rate, packaging_cost, shipping_cost, marketplace_fee_percentage, profit_margin, target_price,
         created_at, updated_at)
       select $1, (array['Vase', 'Figur', 'Halter', 'Lampe', 'Box'])[1 + g % 5] || ' Nr. ' || g, 1 + g % 10, 25 + g % 50, 25, 3.5, 200, 0.32,
         15, 10, 15, 0.5, 4.95, 5, 25, 0, now() - g * interval '1 minute', now() - g * interval '1 minute'
       from generate_series(1, $2::int) g`,
      [userId, items.projects],
    );
  }
  await db.end();
  // Rows inserted by SQL have no stored prices yet: priced as the start would price them.
  if (items.projects) await storePricesOfSeededProjects(`postgresql://postgres:postgres@127.0.0.1:${PG_PORT}/druckpreis`);
  const login = await fetch(`${BASE}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const cookie = login.headers.getSetCookie().find((value) => value.startsWith('__session='));
  if (!login.ok || !cookie) throw new Error(`login failed: ${login.status}`);
  return cookie.split(';')[0];
}

async function storePricesOfSeededProjects(url: string) {
  const orm = await MikroORM.init(createOrmConfig(url));
  try {
    await storeMissingProjectPrices(orm.em.fork());
  } finally {
    await orm.close(true);
  }
}

function run(target: Target, duration: number) {
  return autocannon({
    url: BASE + target.path,
    connections: CONNECTIONS,
    duration,
    // What Chromium sends.
    headers: { 'accept-encoding': 'gzip, deflate, br, zstd', ...(target.signedIn ? { cookie: cookies[target.signedIn]! } : {}) },
    requests: target.unique
      ? [{ setupRequest: (request) => ({ ...request, path: `${target.path}&filamentWeight=${(counter++ % 100000) / 10 + 1}` }) }]
      : undefined,
  });
}

/**
 * CPU time (user + system) the server has used so far: the app's workers and
 * the embedded PostgreSQL, every process under the one the bench started, split into the app (Node) and the database (postgres processes). Per
 * request it is a figure that another busy process on the machine barely
 * moves, unlike latency.
 */
function serverCpuMs(rootPid: number): { app: number; db: number } {
  const stats = new Map<number, { ppid: number; ticks: number; db: boolean }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command's closing parenthesis: state, ppid, … utime (14th), stime (15th).
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const db = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith('postgres');
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), db });
    } catch {
      // The process ended meanwhile.
    }
  }
  const inTree = (pid: number): boolean => {
    for (let current = pid, depth = 0; current > 1 && depth < 32; depth++) {
      if (current === rootPid) return true;
      current = stats.get(current)?.ppid ?? 0;
    }
    return false;
  };
  const ms = { app: 0, db: 0 };
  // USER_HZ is 100 on Linux.
  for (const [pid, stat] of stats) if (inTree(pid)) ms[stat.db ? 'db' : 'app'] += stat.ticks * 10;
  return ms;
}

/**
 * The JavaScript a first visit loads, measured from the build by the same
 * function as scripts/js-budget.ts; checked against the modulepreload links
 * the server actually wrote, so a difference between the two shows.
 */
async function reportJavaScript(path: string) {
  const html = await (await fetch(BASE + path)).text();
  const served = new Set([...html.matchAll(/(?:rel="modulepreload" href="|import\(")([^"]+\.js)"/g)].map((m) => m[1]));
  const measured = measureFirstVisitJs();
  console.log(`\n${formatFirstVisitJs(path, measured, FIRST_VISIT_BUDGET_BYTES)}`);
  const listed = new Set(measured.files.map((file) => file.url));
  const differ = [...served].filter((url) => !listed.has(url)).concat([...listed].filter((url) => !served.has(url)));
  if (differ.length) console.log(`  WARNING: the page's modulepreloads and the build's manifest differ: ${differ.join(', ')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
