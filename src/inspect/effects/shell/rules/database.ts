import { finding } from '../../settings.js';
import { judgeSql } from '../../sql/judge.js';
import type { ShellCommand } from '../../types.js';
import type { CommandRule } from './emit.js';
import { operands } from './targets.js';

/**
 * Database clients run from the shell: the SQL they are handed (`mysql -e`, `psql -c`, `sqlite3 db "…"`,
 * `sqlcmd -Q`, a here-string or `echo … |`) is judged as SQL; `dropdb`, `mysqladmin drop`, `redis-cli FLUSHALL`
 * and MongoDB `dropDatabase()` destroy a database outright.
 */

const SQL_FLAGS = new Set(['-e', '--execute', '-c', '--command', '-Q', '-q', '--query', '--eval', '-cmd']);
const SQL_CLIENTS = new Set(['mysql', 'mariadb', 'psql', 'sqlite3', 'sqlcmd', 'osql', 'isql', 'clickhouse-client', 'cqlsh', 'duckdb', 'cockroach', 'snowsql', 'bq']);

function sqlTexts(cmd: ShellCommand): string[] {
  const out: string[] = [];
  cmd.args.forEach((a, i) => {
    if (SQL_FLAGS.has(a) && cmd.args[i + 1]) out.push(cmd.args[i + 1]);
    else if (/^--(execute|command|query)=/.test(a)) out.push(a.slice(a.indexOf('=') + 1));
  });
  if (cmd.name === 'sqlite3' || cmd.name === 'duckdb') out.push(...operands(cmd).slice(1));
  if (cmd.name === 'bq' && operands(cmd)[0] === 'query') out.push(...operands(cmd).slice(1));
  for (const r of cmd.redirects) if (r.op === '<<<' || r.op === '<<') out.push(r.target);
  const feeder = cmd.pipeIn;
  if (feeder && (feeder.name === 'echo' || feeder.name === 'printf' || feeder.name === 'cat')) out.push(...feeder.args, ...feeder.redirects.filter((r) => r.op === '<<').map((r) => r.target));
  return out;
}

export const databases: CommandRule = (cmd, _script, emit) => {
  const ops = operands(cmd);
  if (SQL_CLIENTS.has(cmd.name)) {
    for (const sql of sqlTexts(cmd)) for (const f of judgeSql(sql)) emit({ ...f, detail: `${cmd.name}: ${f.detail}` });
  }
  if (cmd.name === 'dropdb' || (cmd.name === 'mysqladmin' && ops.some((o) => o.toLowerCase() === 'drop'))) emit(finding('db-cli-drop', 'db_cli_destroy', `${cmd.name} drops a database`));
  if (cmd.name === 'redis-cli' && ops.some((o) => /^(flushall|flushdb)$/i.test(o))) emit(finding('redis-flush', 'db_cli_destroy', 'redis-cli empties the store'));
  if (cmd.name === 'redis-cli' && ops.some((o) => /^config$/i.test(o)) && ops.some((o) => /^(dir|dbfilename)$/i.test(o))) emit(finding('redis-file-write', 'persistence_write', 'redis-cli points its dump file at another path'));
  if (cmd.name === 'mongo' || cmd.name === 'mongosh') {
    const code = sqlTexts(cmd).join('\n');
    if (/\.dropDatabase\s{0,4}\(|\.drop\s{0,4}\(\s{0,4}\)|\.(deleteMany|remove)\s{0,4}\(\s{0,4}\{\s{0,4}\}\s{0,4}\)/.test(code)) emit(finding('mongo-drop', 'db_cli_destroy', `${cmd.name} drops or empties a database`));
  }
};
