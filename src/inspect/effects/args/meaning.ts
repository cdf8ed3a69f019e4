import type { EffectFinding } from '../types.js';
import { judgeBulkExport } from './exports.js';
import { isObject, parseArguments, type Json } from './json.js';
import { leavesOf, textOf } from './leaves.js';
import { judgeMailRule } from './mail.js';
import { judgePayment } from './payments.js';
import { accountDomains } from './recipients.js';

/**
 * JSON arguments of any tool read by meaning (who receives, how much, to whom, what scope, what visibility),
 * not by the tool's name: mail forwarding rules, bulk exports of people data, payments to new payees.
 */
export function judgeMeaning(args: Json, out: EffectFinding[]): boolean {
  const leaves = leavesOf(args);
  if (leaves.length === 0) return false;
  const text = textOf(leaves);
  const own = accountDomains(leaves);
  const before = out.length;
  const internalForward = judgeMailRule(leaves, own, text, out);
  judgeBulkExport(leaves, own, text, out);
  const knownPayee = judgePayment(leaves, text, out);
  return out.length === before && (internalForward || knownPayee);
}

/**
 * True when the arguments are an action the judge recognised and found in order (a forwarding rule to the
 * account's own domains, a payment to a known payee) and nothing else: the semantic layer caps its model score.
 */
export function meaningVouches(text: string): boolean {
  if (!text.includes('@') && !/payee|benefic|recipient|counterparty|vendor|contact/i.test(text)) return false;
  const args = parseArguments(text);
  return (isObject(args) || Array.isArray(args)) && judgeMeaning(args, []);
}
