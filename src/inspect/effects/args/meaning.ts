import type { EffectFinding } from '../types.js';
import { judgeBulkExport } from './exports.js';
import type { Json } from './json.js';
import { leavesOf, textOf } from './leaves.js';
import { judgeMailRule } from './mail.js';
import { judgePayment } from './payments.js';
import { accountDomains } from './recipients.js';

/**
 * JSON arguments of any tool read by meaning (who receives, how much, to whom, what scope, what visibility),
 * not by the tool's name: mail forwarding rules, bulk exports of people data, payments to new payees.
 */
export function judgeMeaning(args: Json, out: EffectFinding[]): void {
  const leaves = leavesOf(args);
  if (leaves.length === 0) return;
  const text = textOf(leaves);
  const own = accountDomains(leaves);
  judgeMailRule(leaves, own, text, out);
  judgeBulkExport(leaves, own, text, out);
  judgePayment(leaves, text, out);
}
