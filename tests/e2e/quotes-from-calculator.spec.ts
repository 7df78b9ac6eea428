import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * 'Angebot erstellen' straight from a calculation not saved yet (issue 26), with
 * JavaScript and without: the calculator saves it as a project first (the free
 * plan's limit and a missing name refused in German, nothing lost) and opens the
 * new quote for that project.
 */

const createQuote = (page: Page) => page.locator('[data-create-quote]');
const toast = (page: Page) => page.locator('[data-toast]');

async function projectsOf(page: Page) {
  const response = await page.request.get('/api/projects');
  const body = (await response.json()) as { id: string; name: string }[] | { projects: { id: string; name: string }[] };
  return Array.isArray(body) ? body : body.projects;
}

test('an unsaved calculation: saved first, then the new quote for it', async ({ page, signIn, javaScriptEnabled }) => {
  await signIn();
  // From the projects (a signed-in seller's '/' is the calculator already: the link would reload it while the test types).
  await page.goto('/projects');
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Rechner' }).first().click();
  await expect(page).toHaveURL(/\/calculator/);
  await expect(createQuote(page)).toHaveText('Angebot erstellen');
  await expect(page.getByText('Speichert die Berechnung zuerst als Projekt (mit Projektname).')).toBeVisible();

  // No name yet: the save's own German refusal, and we stay on the calculator.
  await createQuote(page).click();
  const refusal = javaScriptEnabled ? toast(page) : page.locator('[data-save-error]');
  await expect(refusal).toContainText('Projektname erforderlich');
  await expect(page).toHaveURL(/\/calculator/);
  expect(await projectsOf(page)).toHaveLength(0);

  await page.getByLabel('Projektname').fill('Vase für Erika');
  await page.getByLabel('Anzahl Aufträge').fill('3');
  await createQuote(page).click();
  await expect(page).toHaveURL(/\/angebote\/neu\?project=[0-9a-f-]{36}#new-quote$/);
  await expect(toast(page)).toContainText('„Vase für Erika“ ist gespeichert. Tragen Sie jetzt Ihren Kunden ein.');
  const projects = await projectsOf(page);
  expect(projects.map((project) => project.name)).toEqual(['Vase für Erika']);
  expect(page.url()).toContain(projects[0].id);

  await page.getByLabel('Kunde (Name oder Firma)').fill('Erika Mustermann');
  await page.getByRole('button', { name: 'Angebot erstellen' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Angebot A-');
  await expect(page.getByLabel('Artikel – Beschreibung')).toHaveValue('Vase für Erika');
  await expect(page.getByLabel('Menge', { exact: true })).toHaveValue('3');

  // Back in the saved, unchanged calculation it is a plain link to a new quote.
  await page.goto(`/calculator?project=${projects[0].id}`);
  await expect(createQuote(page)).toHaveAttribute('href', `/angebote/neu?project=${projects[0].id}`);
});

test("the free plan's limit: refused in German on the way to a quote, nothing lost", async ({ page, signIn, javaScriptEnabled }) => {
  await signIn();
  for (const name of ['Eins', 'Zwei', 'Drei']) {
    const response = await page.request.post('/api/projects', { data: { name, quantity: 1, filamentWeight: 25, printTime: 2 } });
    expect(response.status()).toBe(201);
  }
  // From the projects (a signed-in seller's '/' is the calculator already: the link would reload it while the test types).
  await page.goto('/projects');
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Rechner' }).first().click();
  await expect(page).toHaveURL(/\/calculator/);
  await page.getByLabel('Projektname').fill('Vier');
  await createQuote(page).click();
  const refusal = javaScriptEnabled ? toast(page) : page.locator('[data-save-error]');
  await expect(refusal).toContainText('Projektlimit erreicht');
  await expect(refusal).toContainText('Kostenlose Nutzer können maximal 3 Projekte erstellen.');
  await expect(refusal).toContainText('Ein Angebot entsteht aus einem gespeicherten Projekt');
  await expect(refusal.getByRole('link', { name: 'Premium upgraden' })).toHaveAttribute('href', '/premium');
  await expect(page).toHaveURL(/\/calculator/);
  await expect(page.getByLabel('Projektname')).toHaveValue('Vier');
  expect(await projectsOf(page)).toHaveLength(3);
});
