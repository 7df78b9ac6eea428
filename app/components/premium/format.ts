/** Prices and dates on the Premium page, the German way (spec §9: dates in German format). */

export function formatMonthlyPrice(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('de-DE', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2).replace('.', ',')} ${currency.toUpperCase()}`;
  }
}

const dateFormat = new Intl.DateTimeFormat('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Berlin' });

/** Unix seconds as a German date (dd.mm.yyyy). */
export function formatPeriodEnd(seconds: number): string {
  return dateFormat.format(new Date(seconds * 1000));
}
