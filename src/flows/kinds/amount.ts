/**
 * Amounts in the notations people write them: `1,250.00` (en), `1.250,00` (de, es, it, nl, pt, pl), `1 250,00` and
 * `1 250,00` with a no-break or narrow no-break space (fr, pl), `1'250.00` (de-CH), `1250`, with a currency symbol,
 * code or word before or after (`€`, `EUR`, `Euro`, `zł`, `CHF`, `dollars`), all as minor units (`amount:125000`).
 * Two decimals at most after the last separator; three digits after it are thousands (`1.250` is 1250 — the
 * conventions that write 1.25 with a dot never group with one). Numbers below 10 are everywhere and are not traced.
 */

const SPACES = /[' \u00a0\u202f\u2009]/g;
export const AMOUNT =
  /(?<![\w.,])\d{1,3}(?:[.,' \u00a0\u202f\u2009]\d{3}){1,6}(?:[.,]\d{1,2})?(?!\d)|(?<![\w.,])\d{1,18}(?:[.,]\d{1,2})?(?![\d\w])/g;

export function amountKey(raw: string): string | undefined {
  const s = raw.replace(SPACES, '');
  if (!/^\d[\d.,]*$/.test(s)) return undefined;
  const lastSep = Math.max(s.lastIndexOf('.'), s.lastIndexOf(','));
  let units = s;
  let cents = '00';
  if (lastSep >= 0 && s.length - lastSep - 1 <= 2) {
    units = s.slice(0, lastSep);
    cents = s.slice(lastSep + 1).padEnd(2, '0');
  }
  units = units.replace(/[.,]/g, '');
  const n = Number(units);
  if (!Number.isSafeInteger(n) || n < 10) return undefined;
  return `amount:${n}${cents}`;
}

export function amounts(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(AMOUNT)) {
    const k = amountKey(m[0]);
    if (k) out.push(k);
  }
  return out;
}
