import type { Span } from '../types.js';
import {
  Script,
  isAsciiAlnum,
  isBidiControl,
  isBidiMark,
  isControl,
  isInvisibleFormat,
  isJoiner,
  isVariationSelector,
  scriptOf,
} from './chars.js';

/** Everything the topology layer needs that one left-to-right pass over the UTF-16 units can count. */
export interface CharStats {
  length: number;
  /** Invisible format characters, suspicious joiners, tags and variation-selector runs. */
  invisible: number;
  /** Invisible characters sitting between two ASCII letters or digits (word splitting). */
  invisibleInWord: number;
  bidiControls: number;
  bidiMarks: number;
  /** Longest run of Unicode tag characters (U+E0000–E007F) not part of an emoji flag sequence. */
  tagRun: number;
  tagSpan?: Span;
  /** Longest run of variation selectors (BMP and supplement). */
  selectorRun: number;
  controls: number;
  escapes: number;
  maxDepth: number;
  /** Longest run of one repeated UTF-16 unit, and where it starts. */
  charRun: number;
  charRunStart: number;
  /** Words mixing Latin letters with Latin-lookalike Cyrillic/Greek/Armenian/Cherokee letters. */
  mixedWords: number;
  mixedSpan?: Span;
  /** `;`, `{`, `}` count: a cheap hint that the payload is source code. */
  codePunctuation: number;
  newlines: number;
  /** Runs of base64/hex-alphabet characters at least `blobMin` long (entropy is judged later). */
  blobRuns: Span[];
}

const TAG_HIGH = 0xdb40;
const MAX_BLOB_RUNS = 256;

/** `+ / = _ -`: the non-alphanumeric members of the base64 and base64url alphabets. */
function isBlobPunct(c: number): boolean {
  return c === 0x2b || c === 0x2f || c === 0x3d || c === 0x5f || c === 0x2d;
}

export function scanCharacters(text: string, blobMin: number): CharStats {
  const s: CharStats = {
    length: text.length,
    invisible: 0,
    invisibleInWord: 0,
    bidiControls: 0,
    bidiMarks: 0,
    tagRun: 0,
    selectorRun: 0,
    controls: 0,
    escapes: 0,
    maxDepth: 0,
    charRun: 0,
    charRunStart: 0,
    mixedWords: 0,
    codePunctuation: 0,
    newlines: 0,
    blobRuns: [],
  };
  let depth = 0;
  let run = 0;
  let runStart = 0;
  let prevUnit = -1;
  let tagRun = 0;
  let tagStart = 0;
  let flagContext = false;
  let selectorRun = 0;
  let blobStart = 0;
  // Word state for mixed-script detection.
  let wordStart = -1;
  let latin = 0;
  let lookalike = 0;
  let lastVisible = -1;
  const n = text.length;
  const endBlob = (i: number): void => {
    if (i - blobStart >= blobMin && s.blobRuns.length < MAX_BLOB_RUNS) s.blobRuns.push({ start: blobStart, end: i });
    blobStart = i + 1;
  };
  const endWord = (i: number): void => {
    if (latin >= 2 && lookalike >= 1) {
      s.mixedWords++;
      if (!s.mixedSpan) s.mixedSpan = { start: wordStart, end: i };
    }
    wordStart = -1;
    latin = 0;
    lookalike = 0;
  };
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === prevUnit) run++;
    else {
      if (run > s.charRun) {
        s.charRun = run;
        s.charRunStart = runStart;
      }
      run = 1;
      runStart = i;
      prevUnit = c;
    }
    // ASCII fast path: letters, digits, punctuation, brackets, controls.
    if (c < 0x80) {
      tagRun = 0;
      flagContext = false;
      selectorRun = 0;
      lastVisible = c;
      if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) {
        if (wordStart < 0) wordStart = i;
        latin++;
        continue;
      }
      if (c >= 0x30 && c <= 0x39) {
        if (wordStart < 0) wordStart = i;
        continue;
      }
      if (wordStart >= 0) endWord(i);
      if (isBlobPunct(c)) continue;
      endBlob(i);
      if (c === 0x28 || c === 0x5b || c === 0x7b) {
        depth++;
        if (depth > s.maxDepth) s.maxDepth = depth;
        if (c === 0x7b) s.codePunctuation++;
      } else if (c === 0x29 || c === 0x5d || c === 0x7d) {
        if (depth > 0) depth--;
        if (c === 0x7d) s.codePunctuation++;
      } else if (c === 0x3b) s.codePunctuation++;
      else if (c === 0x0a) s.newlines++;
      else if (isControl(c)) {
        s.controls++;
        if (c === 0x1b) s.escapes++;
      }
      continue;
    }
    endBlob(i);
    // Supplementary-plane tag characters and variation selectors (both behind U+DB40).
    if (c === TAG_HIGH && i + 1 < n) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdc7f) {
        if (tagRun === 0) tagStart = i;
        tagRun++;
        if (!flagContext) {
          s.invisible += 2;
          if (tagRun > s.tagRun) {
            s.tagRun = tagRun;
            s.tagSpan = { start: tagStart, end: i + 2 };
          }
        }
        i++;
        blobStart = i + 1;
        continue;
      }
      if (lo >= 0xdd00 && lo <= 0xddef) {
        if (++selectorRun > s.selectorRun) s.selectorRun = selectorRun;
        s.invisible += 2;
        i++;
        blobStart = i + 1;
        continue;
      }
    }
    tagRun = 0;
    // U+1F3F4 (waving black flag) followed by tags is a legitimate subdivision flag.
    flagContext = (c === 0xd83c && text.charCodeAt(i + 1) === 0xdff4) || (c === 0xdff4 && flagContext);
    if (isVariationSelector(c)) {
      if (++selectorRun > s.selectorRun) s.selectorRun = selectorRun;
      if (selectorRun > 1) s.invisible++;
      continue;
    }
    selectorRun = 0;

    let invisible = false;
    if (isInvisibleFormat(c)) invisible = !(c === 0xfeff && i === 0);
    else if (isJoiner(c)) {
      invisible = isAsciiAlnum(text.charCodeAt(i - 1)) || isAsciiAlnum(text.charCodeAt(i + 1));
    } else if (isBidiControl(c)) {
      s.bidiControls++;
      invisible = true;
    } else if (isBidiMark(c)) s.bidiMarks++;
    else if (isControl(c)) s.controls++;
    if (invisible) {
      s.invisible++;
      if (isAsciiAlnum(lastVisible) && isAsciiAlnum(text.charCodeAt(i + 1))) s.invisibleInWord++;
      continue;
    }
    lastVisible = c;
    const script = scriptOf(c);
    if (script === Script.None) {
      if (wordStart >= 0) endWord(i);
    } else {
      if (wordStart < 0) wordStart = i;
      if (script === Script.Latin) latin++;
      else if (script === Script.Lookalike) lookalike++;
    }
  }
  if (run > s.charRun) {
    s.charRun = run;
    s.charRunStart = runStart;
  }
  if (wordStart >= 0) endWord(n);
  endBlob(n);
  return s;
}
