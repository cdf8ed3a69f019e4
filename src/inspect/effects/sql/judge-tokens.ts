import { finding } from '../settings.js';
import type { EffectFinding } from '../types.js';
import type { SqlStatement, SqlToken } from './tokens.js';

/**
 * Token-level judgement of one SQL statement, for every dialect: what the statement does, read from its keywords
 * at bracket depth 0 (so a WHERE inside a sub-query does not bound an outer DELETE). Statements node-sql-parser
 * cannot parse or misreads (`DROP DATABASE x CASCADE` in T-SQL, `EXEC xp_cmdshell`) are judged here.
 */

const VERBS = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'DROP', 'TRUNCATE', 'GRANT', 'REVOKE', 'ALTER', 'CREATE', 'EXEC', 'EXECUTE', 'COPY', 'MERGE', 'SHUTDOWN', 'SET', 'LOAD', 'CALL', 'REPLACE']);
const DATABASE_OBJECTS = new Set(['DATABASE', 'SCHEMA']);
const MAJOR_OBJECTS = new Set(['TABLE', 'USER', 'ROLE', 'LOGIN', 'OWNED', 'TABLESPACE']);
const SERVER_ROLES = /^(SYSADMIN|SECURITYADMIN|SERVERADMIN|DB_OWNER|RDS_SUPERUSER|CLOUDSQLSUPERUSER|AZURE_PG_ADMIN|DBA|SUPERUSER|PG_READ_SERVER_FILES|PG_WRITE_SERVER_FILES|PG_EXECUTE_SERVER_PROGRAM|PG_WRITE_ALL_DATA)$/;
const COMMAND_EXEC = /xp_cmdshell|sp_oacreate|sp_oamethod|xp_regwrite|sp_execute_external_script|xp_dirtree|xp_fileexist|sp_addextendedproc/;
const FILE_ACCESS = /\binto\s{1,8}(outfile|dumpfile)\b|\bload_file\s{0,4}\(|\bpg_read_(binary_)?file\s{0,4}\(|\blo_(import|export)\s{0,4}\(|\bpg_ls_dir\s{0,4}\(|\bopenrowset\s{0,4}\(\s{0,4}bulk/;

export function judgeStatement(statement: SqlStatement): EffectFinding[] {
  const out: EffectFinding[] = [];
  const top = statement.tokens.filter((t) => t.depth === 0);
  const words = top.filter((t) => t.kind === 'word').map((t) => t.upper);
  const has = (w: string): boolean => words.includes(w);
  const raw = statement.raw;
  if (COMMAND_EXEC.test(raw)) out.push(finding('sql-command-exec', 'db_command_exec', 'runs an operating-system command from the database'));
  if (has('COPY') && has('PROGRAM')) out.push(finding('sql-copy-program', 'db_command_exec', 'COPY … PROGRAM runs a shell command'));
  if (FILE_ACCESS.test(raw)) out.push(finding('sql-file-access', 'db_file_access', 'reads or writes server files from SQL'));
  const verbIndex = mainVerb(top);
  if (verbIndex < 0) return out;
  const verb = top[verbIndex].upper;
  const next = (k: number): string => top[verbIndex + k]?.upper ?? '';
  switch (verb) {
    case 'DROP': {
      const object = next(1) === 'TEMPORARY' || next(1) === 'TEMP' ? next(2) : next(1);
      if (DATABASE_OBJECTS.has(object)) out.push(finding('sql-drop-database', 'db_drop_database', `DROP ${object}`));
      else if (MAJOR_OBJECTS.has(object)) out.push(finding('sql-drop-object', 'db_drop_object', `DROP ${object}`));
      else if (object) out.push(finding('sql-drop-minor', 'db_drop_minor', `DROP ${object.slice(0, 16)}`));
      break;
    }
    case 'TRUNCATE':
      out.push(finding('sql-truncate', 'db_truncate', 'TRUNCATE empties a table'));
      break;
    case 'DELETE':
    case 'UPDATE': {
      if (verb === 'DELETE' && !deleteShape(top.slice(verbIndex + 1))) break;
      const where = top.findIndex((t, i) => i > verbIndex && t.upper === 'WHERE');
      if (where < 0) out.push(finding(`sql-${verb.toLowerCase()}-all`, 'db_unbounded_write', `${verb} without WHERE touches every row`));
      else if (tautology(top.slice(where + 1))) out.push(finding(`sql-${verb.toLowerCase()}-all`, 'db_unbounded_write', `${verb} with an always-true WHERE`));
      break;
    }
    case 'GRANT': {
      const onGlobal = top.some((t, i) => t.upper === '*' && top[i + 1]?.upper === '.' && top[i + 2]?.upper === '*');
      if (has('ALL') || onGlobal || has('SUPER') || words.some((w) => SERVER_ROLES.test(w)) || (has('FILE') && has('ON')) || (has('WITH') && has('OPTION') && has('GRANT'))) {
        out.push(finding('sql-grant-all', 'db_grant_all', 'GRANT of all or server-wide privileges'));
      }
      break;
    }
    case 'CREATE':
    case 'ALTER': {
      const object = next(1);
      if (object === 'USER' || object === 'ROLE' || object === 'LOGIN') {
        if (has('SUPERUSER') || has('CREATEROLE') || has('BYPASSRLS') || words.some((w) => SERVER_ROLES.test(w) && w !== 'SUPERUSER')) out.push(finding('sql-superuser', 'db_superuser', `${verb} ${object} with superuser rights`));
        else if (verb === 'ALTER' && (has('PASSWORD') || has('IDENTIFIED'))) out.push(finding('sql-password', 'db_password_change', `ALTER ${object} changes a password`));
        else if (verb === 'CREATE') out.push(finding('sql-create-user', 'account_create', `CREATE ${object}`));
      } else if (verb === 'ALTER' && object === 'TABLE' && has('DROP')) out.push(finding('sql-drop-column', 'db_drop_minor', 'ALTER TABLE … DROP'));
      else if (verb === 'ALTER' && object === 'SERVER' && has('ROLE') && words.some((w) => SERVER_ROLES.test(w))) out.push(finding('sql-superuser', 'db_superuser', 'adds a server role member'));
      break;
    }
    case 'EXEC':
    case 'EXECUTE':
      if (/sp_addsrvrolemember|sp_addrolemember/.test(raw) && /sysadmin|db_owner|securityadmin/.test(raw)) out.push(finding('sql-superuser', 'db_superuser', 'adds a sysadmin member'));
      if (/sp_msforeachtable|sp_msforeachdb/.test(raw) && /drop|delete|truncate/.test(raw)) out.push(finding('sql-drop-object', 'db_drop_object', 'drops or empties every table'));
      break;
    case 'SET':
      if (next(1) === 'PASSWORD') out.push(finding('sql-password', 'db_password_change', 'SET PASSWORD'));
      break;
    case 'SHUTDOWN':
      out.push(finding('sql-shutdown', 'shutdown', 'stops the database server'));
      break;
  }
  return out;
}

const AFTER_TABLE = new Set(['WHERE', 'USING', 'RETURNING', 'OUTPUT', 'ORDER', 'LIMIT', 'JOIN', 'INNER', 'LEFT', 'RIGHT', 'FROM', 'OPTION', 'WITH', 'AS', 'TOP']);

/** `DELETE [TOP (n)] [FROM] table [[AS] alias] [WHERE …|USING …|;]`: prose after "delete from" does not fit. */
function deleteShape(rest: SqlToken[]): boolean {
  let i = 0;
  if (rest[i]?.upper === 'TOP') while (i < rest.length && rest[i].upper !== 'FROM' && i < 6) i++;
  if (rest[i]?.upper === 'FROM') i++;
  if (rest[i]?.kind !== 'word') return false;
  i++;
  while (rest[i]?.upper === '.' && rest[i + 1]?.kind === 'word') i += 2;
  if (i >= rest.length || AFTER_TABLE.has(rest[i].upper)) return true;
  // One alias word, then the end or a clause keyword.
  return rest[i].kind === 'word' && (i + 1 >= rest.length || AFTER_TABLE.has(rest[i + 1].upper));
}

function mainVerb(top: SqlToken[]): number {
  if (top.length === 0) return -1;
  if (top[0].upper === 'WITH') {
    // After a CTE, the statement's verb is the first DML keyword at depth 0.
    return top.findIndex((t) => t.upper === 'SELECT' || t.upper === 'INSERT' || t.upper === 'UPDATE' || t.upper === 'DELETE' || t.upper === 'MERGE');
  }
  return VERBS.has(top[0].upper) ? 0 : top.findIndex((t, i) => i < 3 && VERBS.has(t.upper));
}

/** `WHERE 1=1`, `WHERE TRUE`, `WHERE 1`, `… OR 1=1`, `WHERE 'a'='a'`, `WHERE x = x`. */
function tautology(cond: SqlToken[]): boolean {
  const end = cond.findIndex((t) => ['ORDER', 'LIMIT', 'RETURNING', 'OUTPUT', 'GROUP'].includes(t.upper));
  const c = (end < 0 ? cond : cond.slice(0, end)).filter((t) => t.depth === cond[0]?.depth);
  if (c.length === 1 && (c[0].upper === 'TRUE' || c[0].upper === '1')) return true;
  for (let i = 0; i + 2 < c.length; i++) {
    const [a, op, b] = [c[i], c[i + 1], c[i + 2]];
    const atStart = i === 0 || c[i - 1].upper === 'OR';
    if (atStart && op.upper === '=' && a.kind !== 'symbol' && a.kind === b.kind && a.text === b.text) {
      const end3 = i + 3 >= c.length || c[i + 3].upper === 'OR';
      if (end3 || c[i - 1]?.upper === 'OR') return true;
    }
  }
  return c.length > 0 && c.every((t) => t.upper === 'OR' || t.upper === 'TRUE');
}
