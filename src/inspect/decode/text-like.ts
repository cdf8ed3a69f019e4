import config from '../../../config/obfuscation.json' with { type: 'json' };

/**
 * Decoded bytes become a view only when they are text: valid UTF-8, almost entirely
 * printable, and made mostly of letters. Images, compressed data, random keys and
 * hash digests fail this test (random bytes are almost never valid UTF-8 for long).
 */

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function utf8OrNull(bytes: Uint8Array): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

export function isTextLike(s: string): boolean {
  const enc = config.encodings;
  if (s.length < enc.minDecodedChars) return false;
  let printable = 0;
  let letters = 0;
  let visible = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0d || c === 0x20) {
      printable++;
      continue;
    }
    if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0) || c === 0xfffd) continue;
    printable++;
    visible++;
    if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c >= 0xc0) letters++;
  }
  return printable / s.length >= enc.minPrintableRatio && visible > 0 && letters / visible >= enc.minLetterRatio;
}

/** Bytes → text, or null when they are not text. */
export function bytesToText(bytes: Uint8Array): string | null {
  const s = utf8OrNull(bytes);
  return s !== null && isTextLike(s) ? s : null;
}
