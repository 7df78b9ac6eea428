import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * After the new-user review (issue 26): the send form's default mail greets a company's contact
 * person ('z. Hd. …' in the address), a company without one with 'Sehr geehrte Damen und Herren,'
 * (never 'Guten Tag Müller GmbH'), and a person by name. With JavaScript and without.
 */

async function draftQuote(page: Page, customerName: string, customerAddress: string) {
  const project = await page.request.post('/api/projects', { data: { name: 'Drachenfigur', quantity: 1, filamentWeight: 40, printTime: 3 } });
  expect(project.status()).toBe(201);
  const { id: projectId } = (await project.json()) as { id: string };
  const created = await page.request.post('/api/quotes', { data: { projectId, customerName, customerAddress } });
  expect(created.status()).toBe(201);
  return (await created.json()) as { id: string };
}

test('the default quote mail greets the contact person, a company politely, a person by name', async ({ page, signIn }) => {
  await signIn();
  const cases = [
    { name: 'Müller GmbH', address: 'Werkstraße 5\n80331 München', greeting: 'Sehr geehrte Damen und Herren,' },
    { name: 'Müller GmbH', address: 'z. Hd. Frau Anna Schmidt\nWerkstraße 5\n80331 München', greeting: 'Guten Tag Frau Anna Schmidt,' },
    { name: 'Jörg Weiß', address: 'Gartenweg 2\n10115 Berlin', greeting: 'Guten Tag Jörg Weiß,' },
  ];
  for (const { name, address, greeting } of cases) {
    const quote = await draftQuote(page, name, address);
    await page.goto(`/angebote/${quote.id}`);
    const message = await page.locator('#send-message').inputValue();
    expect(message.split('\n')[0], `${name} / ${address.split('\n')[0]}`).toBe(greeting);
    expect(message).not.toContain('Guten Tag Müller GmbH');
  }
});

test('a placeholder in the address stays text; saving a new customer brings the new greeting into the mail form', async ({ page, signIn }) => {
  await signIn();
  // i18next would fill a placeholder that a value brings along: the greeting stands before the text instead.
  const braces = await draftQuote(page, 'Müller GmbH', 'z. Hd. Herr Max {{number}}\nWerkstraße 5');
  await page.goto(`/angebote/${braces.id}`);
  expect((await page.locator('#send-message').inputValue()).split('\n')[0]).toBe('Guten Tag Herr Max {{number}},');

  const quote = await draftQuote(page, 'Erika Mustermann', 'Gartenweg 2\n10115 Berlin');
  await page.goto('/angebote');
  await page.locator(`a[href="/angebote/${quote.id}"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`/angebote/${quote.id}`));
  await expect(page.locator('#send-message')).toHaveValue(/^Guten Tag Erika Mustermann,/);
  await page.getByLabel('Kunde (Name oder Firma)').fill('Muster GmbH');
  await page.getByRole('button', { name: 'Angebot speichern' }).click();
  await expect(page.locator('[data-toast]')).toContainText('gespeichert');
  // With scripts the page stays and its data refresh; without, the answer is a new page: both greet the company.
  await expect(page.locator('#send-message')).toHaveValue(/^Sehr geehrte Damen und Herren,/);
});
