/**
 * What text a regex can match, for the vocabulary check (customer words never become a rule). Reading the pattern's
 * surface is not enough: `\x63\x6f\x6e`, `\u0063`, `[c][o][n]`, `[Cc]`, `(?:c)(?:o)` and `(c|k)` all spell letters the
 * surface does not show. This reads what a match contains: escapes decoded, single-character classes, case pairs and
 * other small classes expanded, groups joined to their neighbours, alternatives and optional atoms enumerated.
 * Anything that can match many different characters carries no particular letter, but it is not always a separator:
 *   - one that cannot match a letter (`\s`, `\W`, `\d`, `[ ._-]`) reads as a separator (a space) when it must match,
 *     and as JOIN when it may match nothing (`\s*`, `\W?`): the letters on either side may then run together;
 *   - one that can match a letter (`.`, `\w`, `\S`, `[a-z]`, `[^x]`, `\pL`), with any quantifier, reads as WILD: it
 *     joins the letters on either side into one word (`c.n.o.o` can match "contoso").
 * The vocabulary check (vocabulary.ts) judges a word with JOIN or WILD in it by its fixed pieces.
 *
 * The answer is a bounded list of readings (strings in which a space stands for a separator); past the bound, or on
 * a pattern it cannot read, it answers undefined and the caller refuses the rule (fail closed).
 */

export const MAX_READINGS = 256;
/** A class with at most this many distinct characters (after case folding) is expanded, not read as a separator. */
const SMALL_CLASS = 4;
const MAX_EXACT_REPEAT = 8;

const SEP = ' ';
/** Something that can match letters (and so joins the letters around it into one word). */
export const WILD = '\uE000';
/** A non-letter gap that may match nothing (the letters around it may run together). */
export const JOIN = '\uE001';
/** Class escapes that match no letter: \s \W \d, the anchors \b \B \A \z, control characters. */
const NO_LETTER_ESCAPES = 'sWdbBAznrtfvae';
/** POSIX classes without letters. */
const NO_LETTER_NAMED = new Set(['space', 'punct', 'blank', 'cntrl', 'digit']);
type Node = { t: 'text'; s: string } | { t: 'alt'; options: Node[][] };

class Unreadable extends Error {}

/** Every text a match of `pattern` can spell, separators as spaces; undefined when too many or unreadable. */
export function regexReadings(pattern: string): string[] | undefined {
  try {
    const parser = new Parser(pattern);
    const seq = parser.sequence();
    if (parser.i < pattern.length) throw new Unreadable();
    const out = expand(seq);
    return out === undefined ? undefined : [...new Set(out.map((r) => r.replace(/ +/g, ' ')))];
  } catch (err) {
    if (err instanceof Unreadable) return undefined;
    throw err;
  }
}

function expand(seq: Node[]): string[] | undefined {
  let readings = [''];
  for (const node of seq) {
    if (node.t === 'text') {
      readings = readings.map((r) => r + node.s);
      continue;
    }
    const options: string[] = [];
    for (const option of node.options) {
      const e = expand(option);
      if (!e) return undefined;
      options.push(...e);
    }
    const unique = [...new Set(options)];
    if (readings.length * unique.length > MAX_READINGS) return undefined;
    readings = readings.flatMap((r) => unique.map((o) => r + o));
  }
  return readings;
}

/** A gap (no letter of its own): 'wild' when it can match a letter, 'sep' when it cannot; undefined when it spells letters. */
function gapOf(nodes: Node[]): 'wild' | 'sep' | undefined {
  let wild = false;
  for (const n of nodes) {
    const kinds = n.t === 'text' ? [[...n.s].every((c) => c === SEP || c === WILD || c === JOIN) ? (n.s.includes(WILD) ? 'wild' : 'sep') : undefined] : n.options.map(gapOf);
    if (kinds.includes(undefined)) return undefined;
    wild ||= kinds.includes('wild');
  }
  return wild ? 'wild' : 'sep';
}

class Parser {
  i = 0;
  constructor(private readonly p: string) {}

  sequence(): Node[] {
    const branches: Node[][] = [[]];
    while (this.i < this.p.length && this.p[this.i] !== ')') {
      if (this.p[this.i] === '|') {
        this.i++;
        branches.push([]);
        continue;
      }
      const branch = branches[branches.length - 1];
      const atom = this.atom();
      if (atom) this.quantified(branch, atom);
    }
    return branches.length === 1 ? branches[0] : [{ t: 'alt', options: branches }];
  }

  private quantified(branch: Node[], atom: Node[]): void {
    const q = this.quantifier();
    if (!q) {
      branch.push(...atom);
      return;
    }
    const gap = gapOf(atom);
    if (gap === 'wild') return void branch.push({ t: 'text', s: WILD });
    if (gap === 'sep') return void branch.push({ t: 'text', s: q.min === 0 ? JOIN : SEP });
    if (q.min === 0) {
      branch.push({ t: 'alt', options: [atom, []] });
      return;
    }
    // At least once: the shortest match spells the atom `min` times (capped: a long count is no word).
    if (q.min > MAX_EXACT_REPEAT) {
      branch.push({ t: 'text', s: SEP });
      return;
    }
    for (let k = 0; k < q.min; k++) branch.push(...atom);
  }

  private quantifier(): { min: number } | undefined {
    const c = this.p[this.i];
    let min: number;
    if (c === '*' || c === '?') min = 0;
    else if (c === '+') min = 1;
    else if (c === '{') {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(this.p.slice(this.i, this.i + 24));
      if (!m) return undefined;
      min = Number(m[1]);
      this.i += m[0].length - 1;
    } else return undefined;
    this.i++;
    if (this.p[this.i] === '?' || this.p[this.i] === '+') this.i++;
    return { min };
  }

  private atom(): Node[] | undefined {
    const c = this.p[this.i];
    if (c === '(') return this.group();
    if (c === '[') return [this.charClass()];
    if (c === '\\') return [this.escape()];
    this.i++;
    if (c === '.') return [{ t: 'text', s: WILD }];
    if (c === '^' || c === '$') return [{ t: 'text', s: SEP }];
    return [{ t: 'text', s: c }];
  }

  private group(): Node[] | undefined {
    this.i++;
    let lookaround = false;
    if (this.p[this.i] === '?') {
      this.i++;
      if (this.p[this.i] === 'P' || this.p[this.i] === '<') {
        const close = this.p.indexOf('>', this.i);
        if (close < 0) throw new Unreadable();
        this.i = close + 1;
      } else {
        // Flags (?i) (?i-s) or a non-capturing (?flags:…); lookarounds are not RE2 and fail to compile later.
        while (this.i < this.p.length && /[a-zA-Z-]/.test(this.p[this.i])) this.i++;
        if (this.p[this.i] === ')') {
          this.i++;
          return undefined;
        }
        if (this.p[this.i] === ':') this.i++;
        else if (this.p[this.i] !== undefined && '=!<'.includes(this.p[this.i])) lookaround = true;
      }
    }
    const inner = this.sequence();
    if (this.p[this.i] !== ')') throw new Unreadable();
    this.i++;
    // A lookaround is not RE2 (it fails to compile later) and matches no text of its own.
    return lookaround ? [{ t: 'text', s: SEP }] : inner;
  }

  /** `\Q…\E` quotes literally; other escapes decode to the character they match, or a separator. */
  private escape(): Node {
    const next = this.p[this.i + 1];
    if (next === undefined) throw new Unreadable();
    if (next === 'Q') {
      const end = this.p.indexOf('\\E', this.i + 2);
      const text = this.p.slice(this.i + 2, end < 0 ? this.p.length : end);
      this.i = end < 0 ? this.p.length : end + 2;
      return { t: 'text', s: text };
    }
    const decoded = this.escapedChar();
    return { t: 'text', s: decoded === undefined ? (this.lastClassHasLetters ? WILD : SEP) : decoded };
  }

  /** Whether the class escape escapedChar last read (answering undefined) can match a letter. */
  private lastClassHasLetters = false;

  /** The character an escape stands for (advancing past it), or undefined for a class escape (`\s`, `\pL`, …). */
  private escapedChar(): string | undefined {
    const rest = this.p.slice(this.i);
    const code = (hex: string) => {
      const n = parseInt(hex, 16);
      if (!Number.isFinite(n) || n > 0x10ffff) throw new Unreadable();
      return String.fromCodePoint(n);
    };
    let m: RegExpExecArray | null;
    if ((m = /^\\x\{([0-9a-fA-F]{1,8})\}/.exec(rest)) || (m = /^\\u\{([0-9a-fA-F]{1,8})\}/.exec(rest))) {
      this.i += m[0].length;
      return code(m[1]);
    }
    if ((m = /^\\x([0-9a-fA-F]{2})/.exec(rest)) || (m = /^\\u([0-9a-fA-F]{4})/.exec(rest))) {
      this.i += m[0].length;
      return code(m[1]);
    }
    if ((m = /^\\([0-7]{1,3})/.exec(rest))) {
      this.i += m[0].length;
      return String.fromCodePoint(parseInt(m[1], 8));
    }
    if ((m = /^\\[pP](\{[^}]*\}|.)/.exec(rest))) {
      this.i += m[0].length;
      this.lastClassHasLetters = true; // a Unicode class: assume it can match letters (fail closed)
      return undefined;
    }
    const next = rest[1];
    this.i += 2;
    if (/[a-zA-Z]/.test(next)) {
      // \s \w \d \b \n \t …: no particular letter; \w \S \D (and anything unknown) can match one.
      this.lastClassHasLetters = !NO_LETTER_ESCAPES.includes(next);
      return undefined;
    }
    return next;
  }

  /** A bracket class: its characters when few (after case folding), else a separator. */
  private charClass(): Node {
    this.i++;
    let negated = false;
    if (this.p[this.i] === '^') {
      negated = true;
      this.i++;
    }
    const chars = new Set<string>();
    let wide = false;
    let letters = false; // whether the part read as "wide" can match a letter
    let first = true;
    while (this.i < this.p.length && (this.p[this.i] !== ']' || first)) {
      first = false;
      if (this.p.startsWith('[:', this.i)) {
        const close = this.p.indexOf(':]', this.i);
        if (close < 0) throw new Unreadable();
        letters ||= !NO_LETTER_NAMED.has(this.p.slice(this.i + 2, close).replace(/^\^/, ''));
        this.i = close + 2;
        wide = true;
        continue;
      }
      const lo = this.classChar();
      if (lo === undefined) {
        wide = true;
        letters ||= this.lastClassHasLetters;
        continue;
      }
      if (this.p[this.i] === '-' && this.p[this.i + 1] !== ']' && this.i + 1 < this.p.length) {
        this.i++;
        const hi = this.classChar();
        if (hi === undefined) {
          wide = true;
          letters = true;
          continue;
        }
        const a = lo.codePointAt(0)!;
        const b = hi.codePointAt(0)!;
        if (b - a > 64) {
          wide = true;
          letters = true;
        } else for (let k = a; k <= b; k++) chars.add(String.fromCodePoint(k));
        continue;
      }
      chars.add(lo);
    }
    if (this.p[this.i] !== ']') throw new Unreadable();
    this.i++;
    const folded = [...new Set([...chars].map((ch) => ch.toLowerCase()))];
    // A negated class matches letters (fail closed); a wide one when any member can.
    if (negated) return { t: 'text', s: WILD };
    if (wide || folded.length === 0 || folded.length > SMALL_CLASS) return { t: 'text', s: letters || folded.some((ch) => /\p{L}/u.test(ch)) ? WILD : SEP };
    if (folded.length === 1) return { t: 'text', s: folded[0] };
    return { t: 'alt', options: folded.map((ch) => [{ t: 'text', s: /[\p{L}\p{N}]/u.test(ch) ? ch : SEP }]) };
  }

  private classChar(): string | undefined {
    if (this.p[this.i] === '\\') return this.escapedChar();
    const ch = String.fromCodePoint(this.p.codePointAt(this.i)!);
    this.i += ch.length;
    return ch;
  }
}
