import type { EffectFinding } from '../types.js';
import { judgeStatement } from './judge-tokens.js';
import { judgeAst, parseSql } from './parser.js';
import { looksLikeSql } from './shape.js';
import { splitStatements, type SqlStatement } from './tokens.js';

/**
 * Judges SQL text statement by statement: the token reader always (every dialect, and statements no parser
 * reads), and node-sql-parser where its structure can add something the tokens did not already settle — a
 * statement that changes data or schema and on which the token reader found nothing. The findings are united,
 * so a parse never makes a statement safe. Returns nothing for text that does not look like SQL.
 */

export function judgeSql(text: string): EffectFinding[] {
  if (!looksLikeSql(text)) return [];
  const out: EffectFinding[] = [];
  for (const statement of splitStatements(text)) {
    const byTokens = judgeStatement(statement);
    out.push(...byTokens);
    if (byTokens.length === 0 && worthParsing(statement)) {
      const parsed = parseSql(statement.raw);
      if (parsed.parsed) out.push(...judgeAst(parsed.statements));
    }
  }
  return out;
}

function worthParsing(statement: SqlStatement): boolean {
  const verb = statement.tokens.find((t) => t.depth === 0 && t.kind === 'word')?.upper ?? '';
  return verb === 'WITH' || verb === 'DELETE' || verb === 'UPDATE' || verb === 'DROP' || verb === 'TRUNCATE' || verb === 'MERGE' || verb === 'ALTER';
}
