/**
 * Spend limits, in integer minor units of the agent's currency. Pure: the caller reads what the agent already spent
 * (inside the transaction that locked the agent) and records the spend only when this says yes.
 */
export interface SpendLimits {
  currency: string;
  maxPerTransaction: number;
  maxDaily: number;
  maxMonthly: number;
  allowedPayees: readonly string[];
}

export interface Spent {
  /** Already spent in the current UTC day / calendar month. */
  day: number;
  month: number;
}

export type SpendRefusal = 'CURRENCY_MISMATCH' | 'PAYEE_NOT_ALLOWED' | 'LIMIT_PER_TRANSACTION' | 'LIMIT_DAILY' | 'LIMIT_MONTHLY';

/** The first limit the purchase would break, or undefined when it fits. A limit equal to the total is allowed. */
export function spendRefusal(limits: SpendLimits, spent: Spent, purchase: { amount: number; currency: string; payee: string; item: string }): SpendRefusal | undefined {
  if (purchase.currency !== limits.currency) return 'CURRENCY_MISMATCH';
  if (!limits.allowedPayees.includes(purchase.payee) && !limits.allowedPayees.includes(purchase.item)) return 'PAYEE_NOT_ALLOWED';
  if (purchase.amount > limits.maxPerTransaction) return 'LIMIT_PER_TRANSACTION';
  if (spent.day + purchase.amount > limits.maxDaily) return 'LIMIT_DAILY';
  if (spent.month + purchase.amount > limits.maxMonthly) return 'LIMIT_MONTHLY';
  return undefined;
}

/** Start of the UTC day and of the UTC calendar month containing `now`. */
export function spendWindows(now: number): { dayStart: number; monthStart: number } {
  const d = new Date(now);
  return { dayStart: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()), monthStart: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) };
}
