import prices from '../../config/agent-prices.json' with { type: 'json' };

/**
 * Money as integer minor units (cents), never floats. On the wire: decimal strings ("12.50") with at most the
 * currency's ISO 4217 exponent of fraction digits. Bounded so every amount and every sum stays a safe integer.
 */
export const CURRENCIES: Readonly<Record<string, number>> = prices.currencies;
export const CURRENCY_CODES = Object.keys(CURRENCIES);
/** At most 12 integer digits: 10^12 × 100 minor units is far below 2^53. */
export const DECIMAL_PATTERN = '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,2})?$';
const DECIMAL = new RegExp(DECIMAL_PATTERN);

export function exponentOf(currency: string): number {
  const exponent = CURRENCIES[currency];
  if (exponent === undefined) throw new Error(`unknown currency ${currency}`);
  return exponent;
}

/** "12.5" → 1250 (USD). Undefined when the string is not a decimal of this currency's precision. */
export function toMinor(decimal: string, currency: string): number | undefined {
  if (!DECIMAL.test(decimal)) return undefined;
  const exponent = exponentOf(currency);
  const [whole, fraction = ''] = decimal.split('.');
  if (fraction.length > exponent) return undefined;
  return Number(whole) * 10 ** exponent + Number(fraction.padEnd(exponent, '0') || '0');
}

/** 1250 → "12.50" (USD). */
export function toDecimal(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new Error('amount must be a non-negative safe integer');
  const exponent = exponentOf(currency);
  if (exponent === 0) return String(minor);
  const scale = 10 ** exponent;
  return `${Math.floor(minor / scale)}.${String(minor % scale).padStart(exponent, '0')}`;
}
