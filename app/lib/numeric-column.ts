/**
 * A JS number as a PostgreSQL `numeric(p, s)` column keeps it: the driver sends the number's
 * shortest text (`String(n)`), and PostgreSQL rounds that decimal text half away from zero at
 * the scale. Done on the decimal digits (BigInt), not on the binary value, so 1.00005 at scale 4
 * is 1.0001 as in the database, where `toFixed` would give 1.0000. Pure, no app imports.
 */
export function asNumericColumn(value: number, scale: number): number {
  if (!Number.isFinite(value)) return value;
  // Very small or large numbers print with an exponent; their plain digits then come from toFixed.
  let text = String(value);
  if (/e/i.test(text)) text = value.toFixed(Math.min(100, scale + 8));
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  if (fraction.length <= scale) return value;
  let digits = BigInt(whole + fraction.slice(0, scale));
  if (fraction.charCodeAt(scale) >= 53 /* '5' */) digits += 1n;
  const magnitude = Number(scale === 0 ? `${digits}` : `${digits / 10n ** BigInt(scale)}.${(digits % 10n ** BigInt(scale)).toString().padStart(scale, '0')}`);
  return negative && magnitude !== 0 ? -magnitude : magnitude === 0 ? 0 : magnitude;
}
