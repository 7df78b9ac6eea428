import crypto from 'node:crypto';
import pg from 'pg';
import { expect, test } from './fixtures';
import { E2E_DATABASE_URL } from './server-env';

/*
 * 'Als CSV exportieren' on /projects is a plain link. Over the export's rate limit it
 * brings the seller back to the list with a German toast, with JavaScript and without,
 * never a page of raw JSON (the JSON 429 is for scripts and API clients).
 */

/**
 * The seller's export limit used up. The e2e server multiplies every limit by
 * RATE_LIMIT_FACTOR=1000, so the counter is written directly, keyed the way the rate
 * limiter keys it (app/services/rate-limit.server.ts: `projectCsvExport` per `user:<id>`).
 */
async function useUpExportLimit(userId: string) {
  const hash = crypto.createHash('sha256').update(`user:${userId}`).digest('hex').slice(0, 32);
  const client = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await client.connect();
  try {
    await client.query(
      `insert into rate_limits (key, window_start, count, expires_at) values ($1, now(), 100000, now() + interval '15 minutes')
       on conflict (key) do update set count = 100000, expires_at = excluded.expires_at`,
      [`projectCsvExport:email:${hash}`],
    );
  } finally {
    await client.end();
  }
}

test('the CSV link over its rate limit goes back to the list with a German toast', async ({ page, signIn }) => {
  const { id } = await signIn();
  await page.goto('/projects');
  await useUpExportLimit(id);

  await page.getByRole('link', { name: 'Als CSV exportieren' }).click();
  await expect(page).toHaveURL(/\/projects$/);
  const toast = page.locator('[data-toast]');
  await expect(toast).toContainText('CSV-Export gerade nicht möglich');
  await expect(toast).toContainText(/Zu viele Versuche\. Bitte warten Sie \d+ Minuten? und versuchen Sie es dann erneut\./);
  await expect(page.getByText('"message"')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Als CSV exportieren' })).toBeVisible();
});
