import { findLeak, type Leak } from './leak-scanner.js';

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
 * name such as `password =` next to its value), and a leak ends the stream. A run longer than `holdChars` (a long
 * base64 blob) is released in pieces, each scanned first: memory and per-chunk work stay bounded.
 */
export class TextGuard {
  private held = '';
  /** Where the run still open at the end of `held` starts; kept across pushes so each push scans only its delta. */
  private runStart = 0;
  private recent = '';

  /** `allowDomains`: the tenant's allow-list; links to those hosts are never an exfiltration leak. */
  constructor(
    private readonly holdChars: number,
    private readonly allowDomains: readonly string[] = [],
  ) {}

  /** Returns the text safe to send now, or a leak. */
  push(delta: string): { release: string } | { leak: Leak } {
    const separator = afterLastSeparator(delta);
    if (separator >= 0) this.runStart = this.held.length + separator;
    this.held += delta;
    let cut = this.runStart;
    // Window full: release all but the newest half window of the run (scanned first, like every release).
    if (this.held.length - cut > this.holdChars) cut = this.held.length - (this.holdChars >> 1);
    return this.release(cut);
  }

  /** End of the choice: everything still held is scanned and released. */
  flush(): { release: string } | { leak: Leak } {
    return this.release(this.held.length);
  }

  private release(cut: number): { release: string } | { leak: Leak } {
    if (cut === 0) return { release: '' };
    const leak = findLeak(this.recent + this.held, this.allowDomains);
    if (leak) return { leak };
    const out = this.held.slice(0, cut);
    this.held = this.held.slice(cut);
    this.runStart = Math.max(0, this.runStart - cut);
    this.recent = (this.recent + out).slice(-this.holdChars);
    return { release: out };
  }
}
