/**
 * Card and account numbers (and any long number written in groups): the digits only, whatever separates them
 * (`4111 1111 1111 1111`, `4111-1111-1111-1111`, `123.456.789`, `(030) 1234-5678`). At least six digits: shorter
 * runs are everywhere.
 */

export const DIGIT_RUN = /(?<![\w.,])\+?\d[\d \u00a0\u202f()./-]{4,30}\d(?!\w)/g;
const MIN_DIGITS = 6;

export function normaliseDigits(raw: string): string | undefined {
  const d = raw.replace(/\D/g, '');
  return d.length >= MIN_DIGITS ? d : undefined;
}

export function digitRuns(text: string): { raw: string; digits: string }[] {
  const out: { raw: string; digits: string }[] = [];
  for (const m of text.matchAll(DIGIT_RUN)) {
    const d = normaliseDigits(m[0]);
    if (d) out.push({ raw: m[0], digits: d });
  }
  return out;
}
