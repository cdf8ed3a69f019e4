import { decodeBase64, tokenCrcValid } from './checksums.js';

/**
 * Structural checks a regex cannot express. `reject` drops the match; `verified` marks a
 * match whose embedded checksum holds (a confidence booster, never a requirement: test
 * fixtures and synthetic data carry random checksums).
 */
export interface ValidatorResult {
  reject?: boolean;
  verified?: boolean;
}

type Validator = (match: string, text: string, start: number) => ValidatorResult;

/** RFC 7519: the first segment is base64url JSON with an `alg` member (RFC 7515 §4.1.1). */
function jwtHeader(match: string): ValidatorResult {
  const [header, , signature = ''] = match.split('.');
  const json = decodeBase64(header);
  if (!json.startsWith('{')) return { reject: true };
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== 'object' || parsed === null || !('alg' in parsed)) return { reject: true };
    const alg = (parsed as { alg: unknown }).alg;
    if (typeof alg !== 'string') return { reject: true };
    // An unsecured JWT ("alg":"none") has an empty signature; any other needs a real one.
    if (alg.toLowerCase() !== 'none' && signature.length < 16) return { reject: true };
    return {};
  } catch {
    return { reject: true };
  }
}

/** Discord bot tokens start with base64 of the bot's numeric snowflake id. */
function discordSnowflake(match: string): ValidatorResult {
  const id = decodeBase64(match.slice(0, match.indexOf('.')));
  return /^\d{17,20}$/.test(id) ? {} : { reject: true };
}

/** A SAS signature only means something next to the other SAS query parameters. */
function azureSas(_match: string, text: string, start: number): ValidatorResult {
  const before = text.slice(Math.max(0, start - 400), start);
  return before.includes('sv=') && /[?&;](?:se|sp|sr|spr)=/.test(before) ? {} : { reject: true };
}

function crc32Base62(match: string): ValidatorResult {
  return { verified: tokenCrcValid(match) };
}

export const VALIDATORS: Record<string, Validator> = {
  jwtHeader,
  discordSnowflake,
  azureSas,
  crc32Base62,
};
