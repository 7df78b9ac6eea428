/**
 * `npm run bench:lighthouse` (issue 25): builds if needed, serves the production
 * build on a throwaway embedded PostgreSQL (its own port and data dir), then runs
 * Lighthouse (npm, mobile defaults: simulated slow 4G, 150 ms RTT, 4x CPU) in
 * Debian's Chromium against `/` and `/calculator`, as a first visit (no consent
 * cookie) and as a returning visitor (consent given), three runs each, and prints
 * each run's figures and the median. A script, not a test: it asserts nothing.
 *
 * LIGHTHOUSE_RUNS (3), LIGHTHOUSE_PAGES (`/,/calculator`), LIGHTHOUSE_PORT (3296; the
 * database takes the next port), LIGHTHOUSE_DATA_DIR, CHROMIUM_PATH, and
 * LIGHTHOUSE_CATEGORIES (`performance,accessibility,best-practices,seo`) change the run;
 * LIGHTHOUSE_SAVE=<dir> keeps each run's report (JSON) there. LIGHTHOUSE_ADS=test serves the
 * pages with ads switched on in test mode (GOOGLE_ADS_ENABLED, GOOGLE_ADS_TEST_MODE): every slot
 * shows its placeholder, as a free visitor's page does with ads on.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { buildIfNeeded } from './lib/build-if-needed';
import { waitForHealthy } from './lib/wait-for-healthy';

process.env.NODE_ENV ??= 'production';

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3296);
const PG_PORT = Number(process.env.LIGHTHOUSE_PG_PORT ?? PORT + 1);
const DATA_DIR = process.env.LIGHTHOUSE_DATA_DIR ?? 'tests/.tmp/bench-lighthouse';
const BASE = `http://localhost:${PORT}`;
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const PAGES = (process.env.LIGHTHOUSE_PAGES ?? '/,/calculator').split(',');
const CATEGORIES = (process.env.LIGHTHOUSE_CATEGORIES ?? 'performance,accessibility,best-practices,seo').split(',');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ADS_IN_TEST_MODE = process.env.LIGHTHOUSE_ADS === 'test';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

type Figures = {
  performance: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  transferBytes: number;
  requests: number;
  scripts: number;
  others: string;
  lcpElement: string;
};

async function main() {
  // Never a downloaded browser: chrome-launcher is given Debian's Chromium.
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  rmSync(DATA_DIR, { recursive: true, force: true });
  buildIfNeeded();
  const server = spawn('npx', ['tsx', 'scripts/start.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      APP_URL: BASE,
      DATA_DIR,
      EMBEDDED_POSTGRES_PORT: String(PG_PORT),
      LOG_REQUESTS: 'false',
      MAIL_WORKER: 'off',
      ...(ADS_IN_TEST_MODE ? { GOOGLE_ADS_ENABLED: 'true', GOOGLE_ADS_TEST_MODE: 'true' } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await waitForHealthy(BASE);
    const consentCookie = await acceptAllCookies();
    // Each page rendered once, so the runs measure the served page, not the first render after start.
    for (const page of PAGES) await fetch(BASE + page);
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
    console.log(`Lighthouse ${lighthouseVersion()}, mobile defaults (simulated slow 4G, 4x CPU), ${CHROMIUM}`);
    console.log(`ads: ${ADS_IN_TEST_MODE ? 'on, test mode (placeholders in every slot)' : 'as configured (LIGHTHOUSE_ADS=test switches them on in test mode)'}`);
    console.log(`load average at start: ${loadAverage()} (${os.availableParallelism()} cores)\n`);
    for (const page of PAGES) {
      for (const visit of ['first visit', 'returning (consent)'] as const) {
        const headers = visit === 'first visit' ? undefined : { Cookie: consentCookie };
        const runs: Figures[] = [];
        console.log(`${page} — ${visit}`);
        console.log(header());
        for (let run = 1; run <= RUNS; run++) {
          const figures = await measure(chrome.port, BASE + page, headers);
          runs.push(figures);
          console.log(row(`run ${run}`, figures));
        }
        console.log(row('median', median(runs)));
        console.log(`  largest paint: ${runs[runs.length - 1].lcpElement}`);
        console.log(`  other categories: ${runs.map((figures) => figures.others).join(' | ')}\n`);
      }
    }
    console.log(`load average at end: ${loadAverage()}`);
  } finally {
    await chrome?.kill();
    process.kill(-server.pid!, 'SIGTERM');
  }
}

async function measure(port: number, url: string, extraHeaders?: Record<string, string>): Promise<Figures> {
  // On a busy machine Lighthouse now and then loses the trace (NO_NAVSTART): such a run is repeated, up to twice.
  let result: Awaited<ReturnType<typeof lighthouse>>;
  for (let attempt = 1; ; attempt++) {
    result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, extraHeaders });
    if (!result?.lhr.runtimeError || attempt === 3) break;
    console.log(`  (run repeated: ${result.lhr.runtimeError.code})`);
  }
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (process.env.LIGHTHOUSE_SAVE) {
    mkdirSync(process.env.LIGHTHOUSE_SAVE, { recursive: true });
    writeFileSync(path.join(process.env.LIGHTHOUSE_SAVE, `${new URL(url).pathname.replace(/\W+/g, '_')}-${extraHeaders ? 'returning' : 'first'}-${Date.now()}.json`), JSON.stringify(lhr));
  }
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const requests = ((lhr.audits['network-requests']?.details as { items?: Array<{ transferSize?: number; resourceType?: string }> } | undefined)?.items ?? []);
  const lcpItems = (lhr.audits['largest-contentful-paint-element']?.details as { items?: Array<{ items?: Array<{ node?: { snippet?: string } }> }> } | undefined)
    ?.items?.[0]?.items;
  return {
    performance: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    transferBytes: requests.reduce((sum, request) => sum + (request.transferSize ?? 0), 0),
    requests: requests.length,
    scripts: requests.filter((request) => request.resourceType === 'Script').length,
    others: Object.values(lhr.categories)
      .filter((category) => category.id !== 'performance')
      .map((category) => `${category.id} ${Math.round((category.score ?? NaN) * 100)}`)
      .join(', '),
    // Lighthouse 12.2's element gatherer fails on newer Chromium ("RootCauses"): then the audit says so.
    lcpElement: lcpItems?.[0]?.node?.snippet?.slice(0, 120) ?? `not known (${lhr.audits['largest-contentful-paint-element']?.errorMessage?.slice(0, 80) ?? 'no audit'})`,
  };
}

function header() {
  return '            perf    FCP ms    LCP ms   TBT ms     CLS   transferred   requests (scripts)';
}

function row(label: string, figures: Figures) {
  const kib = `${(figures.transferBytes / 1024).toFixed(1)} KiB`;
  return `  ${label.padEnd(8)} ${String(figures.performance).padStart(5)} ${figures.fcpMs.toFixed(0).padStart(9)} ${figures.lcpMs.toFixed(0).padStart(9)} ${figures.tbtMs
    .toFixed(0)
    .padStart(8)} ${figures.cls.toFixed(3).padStart(7)} ${kib.padStart(13)} ${String(figures.requests).padStart(10)} (${figures.scripts})`;
}

function median(runs: Figures[]): Figures {
  const mid = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const pick = (key: keyof Omit<Figures, 'others' | 'lcpElement'>) => mid(runs.map((run) => run[key]));
  return {
    performance: pick('performance'),
    fcpMs: pick('fcpMs'),
    lcpMs: pick('lcpMs'),
    tbtMs: pick('tbtMs'),
    cls: pick('cls'),
    transferBytes: pick('transferBytes'),
    requests: pick('requests'),
    scripts: pick('scripts'),
    others: '',
    lcpElement: '',
  };
}

/** The consent cookie a visitor gets from "Alle akzeptieren" (the no-JS form's POST). */
async function acceptAllCookies(): Promise<string> {
  const response = await fetch(`${BASE}/cookie-consent`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: BASE },
    body: new URLSearchParams({ intent: 'all', redirectTo: '/' }),
  });
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('cookie_consent='));
  if (!cookie) throw new Error(`no consent cookie from POST /cookie-consent (${response.status})`);
  return cookie.split(';')[0];
}

function lighthouseVersion(): string {
  return (JSON.parse(readFileSync('node_modules/lighthouse/package.json', 'utf8')) as { version: string }).version;
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
