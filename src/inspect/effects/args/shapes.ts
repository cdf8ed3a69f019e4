import { classifyPath } from '../paths.js';
import { finding } from '../settings.js';
import type { EffectFinding } from '../types.js';
import { judgeHttp } from './http.js';
import { isObject, serialise, stringsIn, type Json } from './json.js';

/**
 * Well-known argument shapes of agent tools: a command (`command`, `cmd`, `script`, …), a query (`query`, `sql`,
 * `statement`), a file write (`path`/`file`/`filename` + `content`/`text`/`data`), a file read or delete (a path
 * alone, with an `action` naming deletion), an HTTP request (`url` + `method`/`body`/`data`/`json`/`headers`).
 * Keys are compared case-insensitively, ignoring `_` and `-`.
 */

export interface Judges {
  shell(text: string): EffectFinding[];
  sql(text: string): EffectFinding[];
}

const COMMAND_KEYS = new Set(['command', 'cmd', 'script', 'shell', 'bash', 'sh', 'commandline', 'cmdline', 'run', 'exec', 'execute', 'argv', 'args', 'code', 'input']);
const SQL_KEYS = new Set(['query', 'sql', 'statement', 'sqlquery', 'querystring', 'statements', 'queries']);
const PATH_KEYS = new Set(['path', 'file', 'filename', 'filepath', 'target', 'destination', 'dest', 'targetfile', 'outputpath', 'uri']);
const CONTENT_KEYS = new Set(['content', 'contents', 'text', 'data', 'body', 'newcontent', 'newstr', 'newtext', 'append', 'line', 'lines', 'value']);
const URL_KEYS = new Set(['url', 'endpoint', 'webhook', 'webhookurl', 'href', 'link']);
const BODY_KEYS = new Set(['body', 'data', 'json', 'payload', 'form', 'params', 'query', 'content', 'fields']);
const ACTION_KEYS = new Set(['action', 'operation', 'op', 'mode', 'method', 'type']);

const norm = (k: string): string => k.toLowerCase().replace(/[_-]/g, '');

function pick(obj: { [key: string]: Json }, keys: ReadonlySet<string>): [string, Json][] {
  return Object.entries(obj).filter(([k]) => keys.has(norm(k)));
}

/** Shell words from an argv array, quoted so the shell reader sees the same words. */
function argvText(v: Json): string {
  if (!Array.isArray(v)) return serialise(v);
  return v.map((w) => `'${String(w).replace(/'/g, `'\\''`)}'`).join(' ');
}

export function judgeShapes(obj: { [key: string]: Json }, judges: Judges, out: EffectFinding[], depth = 0): void {
  const known = new Set<string>();
  for (const [k, v] of pick(obj, COMMAND_KEYS)) {
    known.add(k);
    if (typeof v === 'string' || Array.isArray(v)) out.push(...judges.shell(argvText(v)), ...judges.sql(serialise(v)));
  }
  for (const [k, v] of pick(obj, SQL_KEYS)) {
    known.add(k);
    for (const s of typeof v === 'string' ? [v] : stringsIn(v, 32)) out.push(...judges.sql(s));
  }
  const paths = pick(obj, PATH_KEYS).filter(([, v]) => typeof v === 'string') as [string, string][];
  const contents = pick(obj, CONTENT_KEYS);
  const action = pick(obj, ACTION_KEYS).map(([, v]) => (typeof v === 'string' ? v.toLowerCase() : '')).join(' ');
  const urls = pick(obj, URL_KEYS).filter(([, v]) => typeof v === 'string') as [string, string][];
  for (const [k, path] of paths) {
    if (/^[a-z][a-z0-9+.-]{0,15}:\/\//i.test(path) && !path.startsWith('file://')) continue;
    known.add(k);
    const classes = classifyPath(path);
    if (contents.length > 0 || /write|append|create|save|put|edit|replace/.test(action)) {
      if (classes.has('persistence')) out.push(finding('file-write-persistence', 'persistence_write', 'file write to a persistence location'));
      if (classes.has('privilegeConfig')) out.push(finding('file-write-privilege', 'privilege_config_write', 'file write to an account, sudo or security file'));
      if (classes.has('preload')) out.push(finding('file-write-preload', 'preload_hijack', 'file write to the dynamic linker preload list'));
      if (classes.has('logs') && !/append/.test(action)) out.push(finding('file-write-log', 'log_tampering', 'file write over logs or history'));
    } else if (/delete|remove|\brm\b|unlink|wipe|destroy|purge/.test(action)) {
      if (classes.has('root') || classes.has('system')) out.push(finding('file-delete-system', 'destroy_root_or_system', 'delete of a system directory'));
      else if (classes.has('home')) out.push(finding('file-delete-home', 'destroy_home', 'delete of a home directory'));
      if (classes.has('logs')) out.push(finding('file-delete-log', 'log_tampering', 'delete of logs or history'));
    } else {
      if (classes.has('credentials')) out.push(finding('file-read-credentials', 'credential_read', 'reads a credential store'));
      else if (classes.has('secretFiles')) out.push(finding('file-read-secret', 'secret_file_read', 'reads a secrets file'));
    }
  }
  for (const [k, url] of urls) {
    known.add(k);
    const method = pick(obj, new Set(['method', 'verb', 'httpmethod'])).map(([, v]) => String(v))[0];
    const body = pick(obj, BODY_KEYS).map(([, v]) => serialise(v)).join('\n');
    const headers = pick(obj, new Set(['headers', 'header', 'auth', 'authorization', 'cookies'])).map(([, v]) => serialise(v)).join('\n');
    out.push(...judgeHttp({ url, method, body, headers }));
  }
  // Unknown keys: nested objects by shape, strings as shell and SQL.
  if (depth >= 8) return;
  for (const [k, v] of Object.entries(obj)) {
    if (known.has(k)) continue;
    if (isObject(v)) judgeShapes(v, judges, out, depth + 1);
    else if (Array.isArray(v)) for (const item of v.slice(0, 64)) {
      if (isObject(item)) judgeShapes(item, judges, out, depth + 1);
      else if (typeof item === 'string') judgeString(item, judges, out);
    }
    else if (typeof v === 'string') judgeString(v, judges, out);
  }
}

function judgeString(s: string, judges: Judges, out: EffectFinding[]): void {
  if (s.length < 2) return;
  out.push(...judges.shell(s), ...judges.sql(s));
  if (/^https?:\/\//i.test(s)) out.push(...judgeHttp({ url: s, body: '', headers: '' }));
}
