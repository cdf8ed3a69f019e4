/**
 * A small structural reading of a regex pattern, for the validation gate. RE2 already guarantees linear-time
 * matching; this answers the questions RE2 does not: what literal text must *every* match contain (a catch-all or
 * a single word is too generic to be a rule), and does the pattern have the shapes that betray a hostile author
 * (a quantified group containing an unbounded quantifier, `(a+)+`, or huge counted repetitions).
 */

export interface RegexShape {
  /** Literal text every match contains (the weakest alternative), non-literal atoms as spaces. */
  required: string;
  nestedQuantifier: boolean;
  maxRepeat: number;
}

const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'b', 'B', 'A', 'z', 'Z', 'C', 'Q', 'E']);

interface Branch {
  atoms: string[];
  unbounded: boolean;
}

interface Parsed {
  text: string;
  unbounded: boolean;
  end: number;
}

export function regexShape(pattern: string): RegexShape {
  const shape: RegexShape = { required: '', nestedQuantifier: false, maxRepeat: 0 };
  shape.required = parseAlternation(pattern, 0, shape).text;
  return shape;
}

function parseAlternation(p: string, start: number, shape: RegexShape): Parsed {
  const branches: Branch[] = [{ atoms: [], unbounded: false }];
  let i = start;
  let lastAtomUnbounded = false;
  while (i < p.length) {
    const branch = branches[branches.length - 1];
    const c = p[i];
    if (c === ')') break;
    if (c === '|') {
      branches.push({ atoms: [], unbounded: false });
      i++;
      continue;
    }
    if (c === '*' || c === '+' || c === '?' || c === '{') {
      const q = quantifier(p, i);
      if (!q) {
        branch.atoms.push(c);
        i++;
        continue;
      }
      shape.maxRepeat = Math.max(shape.maxRepeat, q.max === Infinity ? q.min : q.max);
      if (q.max === Infinity && lastAtomUnbounded) shape.nestedQuantifier = true;
      if (q.max === Infinity) branch.unbounded = true;
      // An atom that may repeat zero times is not required; a repeated one is required once.
      if (q.min === 0) branch.atoms.pop();
      i = q.end;
      lastAtomUnbounded = false;
      continue;
    }
    lastAtomUnbounded = false;
    if (c === '\\') {
      const next = p[i + 1] ?? '';
      if (next === 'p' || next === 'P') {
        i = p[i + 2] === '{' ? p.indexOf('}', i) + 1 || p.length : i + 3;
        branch.atoms.push(' ');
      } else if (next === 'x') {
        i = p[i + 2] === '{' ? p.indexOf('}', i) + 1 || p.length : i + 4;
        branch.atoms.push(' ');
      } else if (CLASS_ESCAPES.has(next) || /[0-9]/.test(next)) {
        branch.atoms.push(' ');
        i += 2;
      } else {
        branch.atoms.push(/[a-z]/i.test(next) ? ' ' : next);
        i += 2;
      }
      continue;
    }
    if (c === '[') {
      i = classEnd(p, i);
      branch.atoms.push(' ');
      continue;
    }
    if (c === '(') {
      let j = i + 1;
      if (p[j] === '?') {
        // (?:…) (?i) (?i:…) (?P<name>…) (?<name>…): skip the group's prefix.
        j++;
        if (p[j] === 'P' || p[j] === '<') j = p.indexOf('>', j) + 1 || p.length;
        else {
          while (j < p.length && /[a-zA-Z-]/.test(p[j])) j++;
          if (p[j] === ')') {
            i = j + 1;
            continue;
          }
          if (p[j] === ':') j++;
        }
      }
      const inner = parseAlternation(p, j, shape);
      branch.atoms.push(inner.text);
      lastAtomUnbounded = inner.unbounded;
      if (inner.unbounded) branch.unbounded = true;
      i = inner.end + 1;
      continue;
    }
    branch.atoms.push(c === '.' || c === '^' || c === '$' ? ' ' : c);
    i++;
  }
  let weakest = branches[0];
  for (const b of branches) if (literalLength(b.atoms.join('')) < literalLength(weakest.atoms.join(''))) weakest = b;
  return { text: weakest.atoms.join(''), unbounded: branches.some((b) => b.unbounded), end: i };
}

function quantifier(p: string, i: number): { min: number; max: number; end: number } | undefined {
  const lazy = (end: number) => (p[end] === '?' || p[end] === '+' ? end + 1 : end);
  if (p[i] === '*') return { min: 0, max: Infinity, end: lazy(i + 1) };
  if (p[i] === '+') return { min: 1, max: Infinity, end: lazy(i + 1) };
  if (p[i] === '?') return { min: 0, max: 1, end: lazy(i + 1) };
  const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i, i + 24));
  if (!m) return undefined;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
  return { min, max, end: lazy(i + m[0].length) };
}

function classEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++;
  while (j < p.length && p[j] !== ']') j += p[j] === '\\' ? 2 : 1;
  return j + 1;
}

/** Letters and digits: what "literal" means for genericity. */
export function literalLength(text: string): number {
  return (text.match(/[\p{L}\p{N}]/gu) ?? []).length;
}
