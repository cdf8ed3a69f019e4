import { finding } from '../settings.js';
import type { EffectFinding } from '../types.js';
import { isTrue, paymentWords, words, type Leaf } from './leaves.js';

/**
 * Payments and transfers (ATT&CK T1657 Financial Theft), read from the arguments of any tool: an amount with a
 * currency or payment words. Money to a payee the arguments mark as new, or to raw account details (IBAN, account
 * and routing numbers, a crypto address) not marked as a known payee, blocks, and so does changing a payee's bank
 * details; money to a stored payee (a payee id, or a known/existing flag) passes; a payee named only by name or
 * e-mail is flagged.
 */

const IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;
const CRYPTO = /^(?:0x[0-9a-fA-F]{40}|bc1[0-9a-z]{25,60}|[13][a-km-zA-HJ-NP-Z1-9]{25,34}|T[1-9A-HJ-NP-Za-km-z]{33})$/;
const MONEY = /^[^0-9]{0,4}[0-9][0-9,.' ]{0,20}(?:[^0-9]{0,6})$/;
const UPDATE_DETAILS = /(?:update|change|edit|replace|set)[ _-]?(?:payee|vendor|supplier|beneficiary|bank|payment)[ _-]?(?:details|account|info|bank|iban)?/i;

function hasAmount(leaves: Leaf[]): boolean {
  return leaves.some((l) => l.path.some((k) => words.amount.has(k)) && (typeof l.value === 'number' ? l.value > 0 : typeof l.value === 'string' && MONEY.test(l.value.trim()) && /[1-9]/.test(l.value)));
}

/**
 * The finding's detail when the payee is raw account details. The flow step reads it: a payment to account details the
 * user typed (or found in their own records) is the user's choice, and the flow state can show it (docs/FLOWS.md).
 */
export const RAW_ACCOUNT_DETAIL = 'payment to raw account details';

/** The values that make a payee raw account details: account, routing or IBAN fields, and IBAN or crypto address values. */
export function rawAccountValues(leaves: Leaf[]): string[] {
  return leaves.flatMap((l) => {
    if (typeof l.value !== 'string' && typeof l.value !== 'number') return [];
    const v = String(l.value).replace(/\s+/g, '');
    if (l.path.some((k) => words.rawAccount.has(k)) && v.length >= 4) return [String(l.value)];
    return IBAN.test(v) || CRYPTO.test(v) ? [String(l.value)] : [];
  });
}

const rawAccount = (leaves: Leaf[]): boolean => rawAccountValues(leaves).length > 0;

/** Returns true when the call is a payment to a payee the arguments mark as known (the judge vouches for it). */
export function judgePayment(leaves: Leaf[], text: string, out: EffectFinding[]): boolean {
  const raw = rawAccount(leaves);
  const amount = hasAmount(leaves);
  const context = leaves.some((l) => l.path.some((k) => words.currency.has(k))) || paymentWords.test(text.replace(/[_.-]/g, ' ')) || paymentWords.test(text);
  const knownFlag = leaves.some((l) => l.path.some((k) => words.knownPayee.has(k) && !k.endsWith('id')) && isTrue(l.value));
  const knownId = leaves.some((l) => l.path.some((k) => words.knownPayee.has(k) && k.endsWith('id')) && typeof l.value === 'string' && l.value.trim().length > 0);
  const newFlag = leaves.some((l) => l.path.some((k) => words.newPayee.has(k)) && isTrue(l.value)) || leaves.some((l) => l.path.some((k) => words.knownPayee.has(k) && !k.endsWith('id')) && (l.value === false || l.value === 'false'));
  if (raw && !knownFlag && UPDATE_DETAILS.test(text)) {
    out.push(finding('payee-bank-details-change', 'payment_new_payee', "changes a payee's bank details"));
    return false;
  }
  if (!amount || !context) return false;
  if (newFlag || (raw && !knownFlag)) out.push(finding('payment-new-payee', 'payment_new_payee', newFlag ? 'payment to a new payee' : RAW_ACCOUNT_DETAIL));
  else if (!knownFlag && !knownId) out.push(finding('payment-unverified-payee', 'payment_unverified_payee', 'payment to a payee not marked as known'));
  else return true;
  return false;
}
