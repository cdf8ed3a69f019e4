/**
 * Phone numbers, E.164-style: `+49 170 1234567`, `0049-170-1234567`, `+49 (0)170 123 45 67` are one number, and a
 * national form (`0170 1234567`) matches the same number written internationally. Without knowing the country the
 * national form belongs to, the number is keyed by its subscriber part: the digits after the trunk `0`, or after a
 * one-, two- or three-digit country code; two forms match when they share that part (at least eight digits, so
 * short numbers never match by accident).
 */

const MIN_SUBSCRIBER = 8;

/** The keys a phone-like digit run is known by (empty when it does not look like a phone number). */
export function phoneKeys(raw: string): string[] {
  const trimmed = raw.trim().replace(/\(0\)/g, '');
  let digits = trimmed.replace(/\D/g, '');
  if (digits.length < MIN_SUBSCRIBER + 1 || digits.length > 17) return [];
  let international = trimmed.startsWith('+');
  if (!international && digits.startsWith('00')) {
    digits = digits.slice(2);
    international = true;
  }
  const out = new Set<string>();
  if (international) {
    out.add(`tel:+${digits}`);
    for (const cc of [1, 2, 3]) if (digits.length - cc >= MIN_SUBSCRIBER) out.add(`tel:${digits.slice(cc)}`);
  } else if (digits.startsWith('0') && !digits.startsWith('00')) {
    out.add(`tel:${digits.slice(1)}`);
  }
  return [...out];
}
