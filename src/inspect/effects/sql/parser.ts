import { createRequire } from 'node:module';
import { bounds, finding } from '../settings.js';
import type { EffectFinding } from '../types.js';

/**
 * First pass with node-sql-parser (one build per dialect, loaded on first use: ~0.3 s and ~30 MB once per thread). The first dialect that parses a statement into an expected statement type wins. Anything else —
 * no dialect parses it, or it parses into something unexpected such as T-SQL's `assign` for `DROP DATABASE x
 * CASCADE` — is "unknown", and only the token reader speaks for it: a parse never makes a statement safe.
 */

interface AstNode {
  type?: string;
  keyword?: string;
  where?: unknown;
  [key: string]: unknown;
}
interface SqlParser {
  astify(sql: string, opt: { database: string }): AstNode | AstNode[];
}

const require = createRequire(import.meta.url);
let dialects: [string, SqlParser][] | undefined;
/**
 * The three builds are loaded on the first statement to parse, not at module load: they hold ~30 MB per thread, and
 * most inspections (prompts, tool results, tool calls that run no SQL) never need them. Loading is synchronous, so
 * the first SQL tool call of a thread only takes a few hundred milliseconds longer.
 */
function parsers(): [string, SqlParser][] {
  dialects ??= ['mysql', 'postgresql', 'transactsql'].map((db) => {
    const mod = require(`node-sql-parser/build/${db}`) as { Parser: new () => SqlParser };
    return [db, new mod.Parser()];
  });
  return dialects;
}
const EXPECTED = new Set(['select', 'insert', 'replace', 'update', 'delete', 'drop', 'truncate', 'grant', 'revoke', 'create', 'alter', 'use', 'show', 'desc', 'explain', 'set', 'lock', 'unlock']);

export type ParseOutcome = { parsed: true; dialect: string; statements: AstNode[] } | { parsed: false };

export function parseSql(sql: string): ParseOutcome {
  if (sql.length > bounds.maxSqlParseChars) return { parsed: false };
  for (const [database, parser] of parsers()) {
    try {
      const ast = parser.astify(sql, { database });
      const statements = (Array.isArray(ast) ? ast : [ast]).filter(Boolean);
      if (statements.length > 0 && statements.every((s) => EXPECTED.has(String(s.type)))) return { parsed: true, dialect: database, statements };
    } catch {
      // Not this dialect; try the next one.
    }
  }
  return { parsed: false };
}

/** What the parsed statements do, from their structure. */
export function judgeAst(statements: AstNode[]): EffectFinding[] {
  const out: EffectFinding[] = [];
  for (const s of statements) {
    const keyword = String(s.keyword ?? '').toLowerCase();
    if ((s.type === 'delete' || s.type === 'update') && (s.where === null || s.where === undefined)) {
      out.push(finding(`sql-${s.type}-all`, 'db_unbounded_write', `${s.type.toUpperCase()} without WHERE touches every row`));
    } else if (s.type === 'drop' && (keyword === 'database' || keyword === 'schema')) {
      out.push(finding('sql-drop-database', 'db_drop_database', `DROP ${keyword.toUpperCase()}`));
    } else if (s.type === 'drop' && (keyword === 'table' || keyword === 'user' || keyword === 'role')) {
      out.push(finding('sql-drop-object', 'db_drop_object', `DROP ${keyword.toUpperCase()}`));
    } else if (s.type === 'truncate') {
      out.push(finding('sql-truncate', 'db_truncate', 'TRUNCATE empties a table'));
    }
  }
  return out;
}
