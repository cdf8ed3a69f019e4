import { BastionError } from '../errors.js';

// Bidi embeddings/overrides U+202A–U+202E and isolates U+2066–U+2069: they reorder what follows, so a name can show
// as another name in the console or a log viewer ("Trojan Source"). Unpaired surrogates are not text at all.
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a user-chosen name could display as something other than what it is. */
export function isSpoofingName(value: string): boolean {
  return BIDI_CONTROL.test(value) || LONE_SURROGATE.test(value);
}

/** 400 DISPLAY_NAME_INVALID (catalogue shape, naming the field) for a name that could display as another. */
export function refuseSpoofingName(value: string | null | undefined, field = 'display_name'): void {
  if (typeof value === 'string' && isSpoofingName(value)) throw new BastionError('DISPLAY_NAME_INVALID', { extra: { field } });
}
