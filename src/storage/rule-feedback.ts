import type { Kysely } from 'kysely';
import type { RuleFeedbackTable } from './evolution-schema.js';
import type { Database } from './schema.js';
import { isUniqueViolation } from './unique.js';

/** Stores one report; false when this tenant already reported this request id. */
export async function recordFeedback(db: Kysely<Database>, row: RuleFeedbackTable): Promise<boolean> {
  try {
    await db.insertInto('rule_feedback').values(row).execute();
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** Whether this tenant had already reported a false positive against `ruleId` (before `requestId`). */
export async function tenantReportedRule(db: Kysely<Database>, tenantId: string, ruleId: string, requestId: string): Promise<boolean> {
  const row = await db
    .selectFrom('rule_feedback')
    .select('request_id')
    .where('tenant_id', '=', tenantId)
    .where('rule_id', '=', ruleId)
    .where('type', '=', 'false_positive')
    .where('request_id', '!=', requestId)
    .executeTakeFirst();
  return row !== undefined;
}
