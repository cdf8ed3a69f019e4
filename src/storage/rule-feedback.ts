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
