import { KEYWORDS } from './config.js';
import { charClasses, classCount, randomness, shannonBits } from './entropy.js';
import { isEnvReference, isPlaceholderValue } from './placeholders.js';

/**
 * Is a keyword-anchored value a real credential? Passwords are judged leniently (people pick
 * `Winter-87$`), generic secrets strictly (they must look random). Both exclude code
 * expressions, references, paths, dates and documentation placeholders.
 */

const PUBLIC_PREFIXES = KEYWORDS.publicValuePrefixes;

/** `self.password`, `config.db.pass`, `req.body.token`, `getpass()`: code, not a value. */
const CODE_EXPRESSION = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$|[()[\]]/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z_.-]*$/;
const PATH_OR_URL = /^(?:[a-z][a-z0-9+.-]*:\/\/|\/|\.{1,2}\/|~\/|[A-Za-z]:\\|file:)/i;
const DATE_OR_TIME = /^\d{4}-\d{2}-\d{2}|^\d{1,2}:\d{2}|^\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}$/;
const NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

function isReferenceOrTemplate(value: string): boolean {
  if (isPlaceholderValue(value) || isEnvReference(value)) return true;
  if (PUBLIC_PREFIXES.some((p) => value.startsWith(p))) return true;
  // `!vault`, `!Ref`, `!Sub` …: YAML tags hand the value to a secret store or template.
  if (/^![A-Za-z][\w.-]*$/.test(value)) return true;
  return CODE_EXPRESSION.test(value) || PATH_OR_URL.test(value) || DATE_OR_TIME.test(value);
}

export function isPasswordValue(value: string): boolean {
  if (value.length < 6 || value.length > 128 || /\s/.test(value)) return false;
  if (isReferenceOrTemplate(value)) return false;
  if (IDENTIFIER.test(value)) return false;
  if (NUMBER.test(value) && value.length < 6) return false;
  return classCount(value) >= 2 || value.length >= 12;
}

export function isSecretValue(value: string): boolean {
  if (value.length < 12 || value.length > 8192 || /\s/.test(value)) return false;
  if (isReferenceOrTemplate(value)) return false;
  if (IDENTIFIER.test(value) || NUMBER.test(value)) return false;
  const classes = charClasses(value);
  // Lower-case words joined by separators ("not-a-real-secret") read as prose.
  if (classes.upper === 0 && classes.digit === 0) return false;
  if (classCount(value) < 2) return false;
  const bits = shannonBits(value);
  return bits >= 2.8 && randomness(value, bits) >= 0.7;
}
