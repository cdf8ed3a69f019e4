import { findLeak, locateLeaks, type Leak } from './leak-scanner.js';
import { redact } from '../../inspect/redact.js';

/**
 * A "word" for hold-back purposes: a run of printable ASCII other than the space. Every credential format the
 * redactor knows (tokens, keyed values, passwords with punctuation, URLs with userinfo) is written with these
 * characters, so a credential is always inside one run. Whitespace and non-ASCII characters (CJK prose has no
 * spaces) end a run, so ordinary prose is held at most until its current word ends.
 */
function inRun(code: number): boolean {
  return code > 0x20 && code < 0x7f;
}

/** Index just after the last separator in `text`, or -1 when `text` is one unbroken run. */
function afterLastSeparator(text: string): number {
  for (let i = text.length; i > 0; i--) if (!inRun(text.charCodeAt(i - 1))) return i;
  return -1;
}

/**
 * Streaming guard for assistant text of one choice. Text flows through as it arrives, except the word still being
 * written, which is held until it ends: a credential is therefore never partly released, whatever the chunking.
 * Every release is scanned together with the recently released text (the look-behind window, which keeps a key
 * name such as `password =` next to its value), and a leak ends the stream (mode `end`, chat completions) or is
 * replaced in place by `[REDACTED:<type>]` while the rest of the text flows on (mode `redact`, the Responses API). A run
 * longer than `holdChars` (a long base64 blob) is released in pieces, each scanned first: memory and per-chunk work
 * stay bounded.
 */
export class TextGuard {
  private held = '';
  /** Where the run still open at the end of `held` starts; kept across pushes so each push scans only its delta. */
  private runStart = 0;
  private recent = '';
  /** Redact mode: the rest of a run whose start was redacted is dropped until the run ends. */
  private swallowing = false;

  /** `allowDomains`: the tenant's allow-list; links to those hosts are never an exfiltration leak. */
  constructor(
    private readonly holdChars: number,
    private readonly allowDomains: readonly string[] = [],
    private readonly mode: 'end' | 'redact' = 'end',
  ) {}

  /** Is part of the text still held back (a word not yet ended)? */
  get holding(): boolean {
    return this.held.length > 0;
  }

  /** Returns the text safe to send now (with the leaks redacted from it, in redact mode), or a leak (end mode). */
  push(delta: string): Released | { leak: Leak } {
    if (this.swallowing) {
      let i = 0;
      while (i < delta.length && inRun(delta.charCodeAt(i))) i++;
      if (i === delta.length) return { release: '' };
      this.swallowing = false;
      delta = delta.slice(i);
    }
    const separator = afterLastSeparator(delta);
    if (separator >= 0) this.runStart = this.held.length + separator;
    this.held += delta;
    let cut = this.runStart;
    // Window full: release all but the newest half window of the run (scanned first, like every release).
    if (this.held.length - cut > this.holdChars) cut = this.held.length - (this.holdChars >> 1);
    return this.release(cut);
  }

  /** End of the choice: everything still held is scanned and released. */
  flush(): Released | { leak: Leak } {
    return this.release(this.held.length);
  }

  private release(cut: number): Released | { leak: Leak } {
    if (cut === 0) return { release: '' };
    const leak = findLeak(this.recent + this.held, this.allowDomains);
    if (leak && this.mode === 'end') return { leak };
    if (leak) return this.releaseRedacted(cut);
    return this.commit(cut, this.held.slice(0, cut));
  }

  /**
   * Redact mode: leaks before the cut are replaced in place; a leak that reaches into the run still being written keeps
   * that run held (it is redacted whole once it ends). A run that outgrew the window is redacted as it stands and the
   * rest of it is dropped as it arrives.
   */
  private releaseRedacted(cut: number): Released {
    const { leaks, spans } = locateLeaks(this.recent + this.held, this.allowDomains, this.recent.length);
    for (let moved = true; moved; ) {
      moved = false;
      for (const s of spans) if (s.start < cut && s.end > cut) [cut, moved] = [s.start, true];
    }
    if (cut === 0 && this.held.length > this.holdChars) {
      cut = this.held.length;
      this.swallowing = spans.some((s) => s.end >= cut);
    }
    const before = spans.filter((s) => s.end <= cut);
    const out = redact(this.held.slice(0, cut), before, []);
    const released = this.commit(cut, out);
    const redacted = leaks.filter((_, i) => spans[i].end <= cut);
    return redacted.length > 0 ? { ...released, redacted } : released;
  }

  private commit(cut: number, out: string): Released {
    this.held = this.held.slice(cut);
    this.runStart = Math.max(0, this.runStart - cut);
    this.recent = (this.recent + out).slice(-this.holdChars);
    return { release: out };
  }
}

/** Text safe to send; `redacted` lists what was replaced in it (redact mode only). */
export interface Released {
  release: string;
  redacted?: Leak[];
}
