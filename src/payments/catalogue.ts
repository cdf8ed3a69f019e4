import prices from '../../config/agent-prices.json' with { type: 'json' };
import { CURRENCIES, toMinor } from '../agents/money.js';

/**
 * The gateway's price catalogue (config/agent-prices.json). A quote's amount comes from here and nowhere else: a
 * request names an item, never a price. Checked at load, so a malformed price fails the boot, not a payment.
 */
export interface CatalogueItem {
  item: string;
  payee: string;
  amount: number;
  currency: string;
  description: string;
}

function load(): ReadonlyMap<string, CatalogueItem> {
  const items = new Map<string, CatalogueItem>();
  for (const [item, entry] of Object.entries(prices.items)) {
    if (!/^[a-z]+:[a-z0-9_-]{1,48}$/.test(item)) throw new Error(`config/agent-prices.json: bad item id ${item}`);
    if (CURRENCIES[entry.currency] === undefined) throw new Error(`config/agent-prices.json: ${item} has an unknown currency`);
    const amount = toMinor(entry.amount, entry.currency);
    if (amount === undefined || amount <= 0) throw new Error(`config/agent-prices.json: ${item} needs a positive decimal amount`);
    items.set(item, { item, payee: entry.payee, amount, currency: entry.currency, description: entry.description });
  }
  return items;
}

export const CATALOGUE = load();
export const ITEM_IDS = [...CATALOGUE.keys()];
