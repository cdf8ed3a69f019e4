import { DIGIT_RUN, normaliseDigits } from './kinds/digits.js';
import { EMAIL, normaliseAddress } from './kinds/email.js';
import { bareDomains, urlHost } from './kinds/host.js';
import { IBAN, normaliseIban } from './kinds/iban.js';
import { phoneKeys } from './kinds/phone.js';
import { leafKeys, urlKey } from './values.js';

/**
 * The destinations one argument value names. A field may name several (`"anna@mycorp.example, x@evil.example"`, a
 * list of IBANs): each is a unit, and the field goes where the user chose only when every unit does. A URL is one
 * unit (what its path or query carries is the sink's data, not another destination); addresses, IBANs and numbers
 * are read from what is left; a domain written in another way (`x(at)evil.example`) is a host unit of its own. A
 * value with none of these is one unit by its whole text (a channel, a payee called by name).
 */

export type UnitKind = 'email' | 'url' | 'iban' | 'number' | 'host' | 'name';

export interface Unit {
  kind: UnitKind;
  /** The keys the unit is known by (any of them chosen chooses the unit). */
  keys: string[];
  /** For addresses, URLs and hosts: the normalised host. */
  host?: string;
  /** The unit's text as written, lower-cased (for the allow-list). */
  text: string;
  /**
   * The URL's host is an IPv4 address written in another notation (`2130706433`, `0x7f000001`, `127.1`): no app
   * writes one, so it is inside the organisation only when that exact text was chosen, never by where it points.
   */
  disguisedIp?: true;
}

const URL = /\b(?:https?|ftp|wss?):\/\/[^\s"'<>`)\]},;]{1,2048}/gi;
const MAX_UNITS = 32;

export function destinationUnits(value: string | number | boolean): Unit[] {
  if (typeof value === 'boolean') return [];
  if (typeof value === 'number') return [{ kind: 'number', keys: [...leafKeys(value)], text: String(value) }];
  const units: Unit[] = [];
  let rest = value.slice(0, 4096);
  const take = (re: RegExp, read: (m: RegExpMatchArray) => Unit | undefined) => {
    rest = rest.replace(re, (...args) => {
      const m = args.slice(0, -2) as unknown as RegExpMatchArray;
      const unit = units.length < MAX_UNITS ? read(m) : undefined;
      if (unit) units.push(unit);
      return unit ? ' ' : m[0];
    });
  };
  take(URL, (m) => {
    const url = m[0].replace(/[.,;:!?]+$/, '');
    const host = urlHost(url);
    const key = urlKey(url);
    if (!host || !key) return undefined;
    return { kind: 'url', keys: [key], host, text: url.toLowerCase(), ...(disguisedIpHost(url, host) ? { disguisedIp: true as const } : {}) };
  });
  take(EMAIL, (m) => {
    const a = normaliseAddress(m[1], m[2]);
    return a && { kind: 'email', keys: [`email:${a.address}`], host: a.host, text: a.address };
  });
  take(IBAN, (m) => {
    const iban = normaliseIban(m[0]);
    return iban ? { kind: 'iban', keys: [`iban:${iban}`], text: iban.toLowerCase() } : undefined;
  });
  take(DIGIT_RUN, (m) => {
    const digits = normaliseDigits(m[0]);
    return digits ? { kind: 'number', keys: [`num:${digits}`, ...phoneKeys(m[0])], text: digits } : undefined;
  });
  for (const host of bareDomains(rest)) if (units.length < MAX_UNITS) units.push({ kind: 'host', keys: [`host:${host}`, `name:${host}`], host, text: host });
  if (units.length > 0) return units;
  return [{ kind: 'name', keys: [...leafKeys(value)], text: value.trim().toLowerCase().replace(/^[#@]/, '') }];
}

const DOTTED_QUAD = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** The host as written in the URL differs from the dotted quad it normalises to. */
function disguisedIpHost(url: string, host: string): boolean {
  if (!DOTTED_QUAD.test(host)) return false;
  const written = url.replace(/^[a-z]+:\/\/(?:[^@/?#]*@)?/i, '').split(/[/?#:]/)[0].toLowerCase().replace(/\.$/, '');
  return written !== host;
}
