import prices from '../../config/l402-prices.json' with { type: 'json' };
import { CATALOGUE } from './catalogue.js';

/** Satoshi price of each L402-payable catalogue item (config/l402-prices.json), checked at load like the catalogue. */
function load(): ReadonlyMap<string, number> {
  const out = new Map<string, number>();
  for (const [item, sats] of Object.entries(prices.items)) {
    if (!CATALOGUE.has(item)) throw new Error(`config/l402-prices.json: ${item} is not in config/agent-prices.json`);
    if (!Number.isSafeInteger(sats) || sats <= 0 || sats > 21e14) throw new Error(`config/l402-prices.json: ${item} needs a positive whole number of sats`);
    out.set(item, sats);
  }
  return out;
}

export const SATS = load();
