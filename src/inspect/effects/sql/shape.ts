import { bounds } from '../settings.js';

/**
 * Does a text look like SQL? Cheap, and strict enough that prose ("Update the docs", "drop me a line") does not
 * pass: a statement keyword at the start of the text or of a line/statement, followed by the shape that keyword
 * takes in SQL. The SQL parser and token reader only run on texts that pass.
 */
const SHAPES =
  /(?:^|[;\n(]|\bgo\b)\s{0,64}(?:delete\s{1,16}(?:top\s{0,4}\(?\s{0,4}\d{1,9}\s{0,4}\)?\s{1,16})?(?:from\s|[\w.`"[\]]{1,128}\s{1,16}from\s)|update\s{1,16}[\w.`"[\]]{1,128}\s{1,16}(?:as\s{1,16}\w{1,64}\s{1,16}|\w{1,64}\s{1,16})?set\s|drop\s{1,16}(?:database|schema|table|user|role|login|view|index|function|procedure|trigger|sequence|type|owned|extension)\b|truncate\s{1,16}(?:table\s|[\w.`"[\]]{1,128}\s{0,16}(?:;|$|,|cascade|restart|continue))|grant\s{1,16}[\w\s,]{1,256}\s(?:on|to)\s|revoke\s|alter\s{1,16}(?:user|role|login|table|database|system|server|schema)\s|create\s{1,16}(?:user|role|login|table|database|schema|function|procedure|trigger|extension)\s|exec(?:ute)?\s{1,16}(?:master\.{1,2})?(?:dbo\.)?(?:xp_|sp_)|copy\s{1,16}[\w.`"(][^\n]{0,256}\s(?:from|to)\s|select\s[^;]{1,512}?\sfrom\s|select\s{1,16}(?:load_file|pg_read_file|pg_read_binary_file|lo_import|lo_export)\s{0,4}\(|insert\s{1,16}into\s|merge\s{1,16}into\s|shutdown(?:\s|;|$)|set\s{1,16}password\s|load\s{1,16}data\s)/i;

export function looksLikeSql(text: string): boolean {
  return SHAPES.test(withoutComments(text.length > bounds.maxSqlChars ? text.slice(0, bounds.maxSqlChars) : text));
}

/** `/* … *\/` and `-- …` comments removed (one linear pass), so `DELETE /* x *\/ FROM t` keeps its shape. */
function withoutComments(text: string): string {
  if (!text.includes('/*') && !text.includes('--')) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const block = text.indexOf('/*', i);
    const line = text.indexOf('--', i);
    const next = block < 0 ? line : line < 0 ? block : Math.min(block, line);
    if (next < 0) break;
    out += text.slice(i, next) + ' ';
    const end = next === block ? text.indexOf('*/', next + 2) : text.indexOf('\n', next);
    i = end < 0 ? text.length : next === block ? end + 2 : end;
  }
  return out + text.slice(i);
}
