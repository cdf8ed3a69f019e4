/**
 * IBANs as written by people (ISO 13616 paper format `DE89 3704 0044 0532 0130 00`, dashes, lower case) or machines
 * (`DE89370400440532013000`): upper case, no separators. The check digits are not verified: a value that only looks
 * like an IBAN adds a key that matches nothing, while an IBAN mistyped the same way by the user and the model still
 * matches itself.
 */

export const IBAN = /(?<![A-Za-z0-9])[A-Za-z]{2}[0-9]{2}(?:[ -]?[A-Za-z0-9]{4}){2,7}(?:[ -]?[A-Za-z0-9]{1,4})?(?![A-Za-z0-9])/g;

export function normaliseIban(raw: string): string | undefined {
  const s = raw.replace(/[\s-]/g, '').toUpperCase();
  return /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(s) ? s : undefined;
}

export function ibans(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IBAN)) {
    const i = normaliseIban(m[0]);
    if (i) out.push(i);
  }
  return out;
}
