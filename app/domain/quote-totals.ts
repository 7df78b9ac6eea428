/**
 * Quote totals (issue 26 §2), pure and browser-safe: the edit page shows the
 * same figures while typing that the server stores and prints.
 *
 * All money is integer cents; no float ever becomes an amount.
 * The rule (docs/quotes.md):
 * 1. Unit prices are end prices (incl. VAT) in cents; a line's total is
 *    quantity × unit price, exact.
 * 2. Lines are summed per VAT rate. A discount (basis points) is taken off each
 *    rate's sum and rounded to the cent (half up), so the VAT follows the discount.
 * 3. Per rate, the VAT contained in the discounted sum is
 *    sum × rate / (100 + rate), rounded to the cent (half up) once per rate —
 *    not per line — and the net amount is the sum minus that VAT. Net + VAT =
 *    gross holds exactly, per rate and in total.
 * 4. A § 19 UStG seller charges no VAT: every rate is 0, no VAT line is shown.
 */

export type TotalsLine = { quantity: number; unitPriceCents: number; vatRate: number };

export type VatGroup = { rate: number; grossCents: number; netCents: number; vatCents: number };

export type QuoteTotals = {
  /** Sum of the lines before the discount (incl. VAT). */
  subtotalCents: number;
  discountCents: number;
  netCents: number;
  /** One entry per VAT rate above 0, highest rate first. */
  vat: { rate: number; cents: number }[];
  grossCents: number;
  groups: VatGroup[];
};

/** a × b / c rounded half up, exact for non-negative integers of any size used here. */
export function mulDivRound(a: number, b: number, c: number): number {
  const numerator = BigInt(a) * BigInt(b);
  const denominator = BigInt(c);
  return Number((numerator * 2n + denominator) / (denominator * 2n));
}

export function lineTotalCents(line: Pick<TotalsLine, 'quantity' | 'unitPriceCents'>): number {
  return line.quantity * line.unitPriceCents;
}

/** Rates are percent with at most two decimals (19, 7, 5.5); computed in hundredths. */
function hundredths(rate: number): number {
  return Math.round(rate * 100);
}

export function quoteTotals(lines: readonly TotalsLine[], { discountBasisPoints = 0, smallBusiness = false } = {}): QuoteTotals {
  const byRate = new Map<number, number>();
  let subtotalCents = 0;
  for (const line of lines) {
    const rate = smallBusiness ? 0 : line.vatRate;
    const total = lineTotalCents(line);
    subtotalCents += total;
    byRate.set(rate, (byRate.get(rate) ?? 0) + total);
  }
  const discount = Math.min(Math.max(Math.trunc(discountBasisPoints), 0), 10_000);
  const groups: VatGroup[] = [...byRate.entries()]
    .sort(([a], [b]) => b - a)
    .map(([rate, sum]) => {
      const grossCents = sum - mulDivRound(sum, discount, 10_000);
      const vatCents = rate > 0 ? mulDivRound(grossCents, hundredths(rate), 10_000 + hundredths(rate)) : 0;
      return { rate, grossCents, vatCents, netCents: grossCents - vatCents };
    });
  const grossCents = groups.reduce((sum, group) => sum + group.grossCents, 0);
  const vatTotal = groups.reduce((sum, group) => sum + group.vatCents, 0);
  return {
    subtotalCents,
    discountCents: subtotalCents - grossCents,
    netCents: grossCents - vatTotal,
    vat: groups.filter((group) => group.rate > 0).map((group) => ({ rate: group.rate, cents: group.vatCents })),
    grossCents,
    groups,
  };
}

/** Cents as a German euro amount: 123456 → '1.234,56 €'. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  const euros = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}${euros},${String(abs % 100).padStart(2, '0')}\u00a0€`;
}

/** Euros (a number from the engine or a form) to cents, rounded half up to the cent. */
export function eurosToCents(euros: number): number {
  // toFixed on the shifted value avoids 1.005 * 100 = 100.49999.
  return Math.round(Number((euros * 100).toFixed(6)));
}
