import { findLeak, type Leak } from './leak-scanner.js';

// A tail that could still grow into a credential or an exfiltration link: a long token-like run, an unfinished
// Markdown image/link, or a URL. Anything else (ordinary words, punctuation) is released at once.
const RISKY_TAIL = /(?:[A-Za-z0-9_\-+/=.:@$%]{8,}|!?\[[^\]\n]*\]?\(?[^)\s]*|https?:\/\/\S*)$/;

/**
 * Streaming guard for assistant text of one choice. Text flows through as it arrives, except a risky tail that is
 * held back (at most `holdChars` characters) until it is complete; every release is scanned together with the
 * recently released text (the look-behind window), and a leak ends the stream.
 */
export class TextGuard {
  private held = '';
  private recent = '';

  constructor(private readonly holdChars: number) {}

  /** Returns the text safe to send now, or a leak. */
  push(delta: string): { release: string } | { leak: Leak } {
    this.held += delta;
    const tail = RISKY_TAIL.exec(this.held.length > this.holdChars ? '' : this.held);
    const cut = tail ? tail.index : this.held.length;
    return this.release(cut);
  }

  /** End of the choice: everything still held is scanned and released. */
  flush(): { release: string } | { leak: Leak } {
    return this.release(this.held.length);
  }

  private release(cut: number): { release: string } | { leak: Leak } {
    if (cut === 0) return { release: '' };
    const window = this.recent + this.held;
    const leak = findLeak(window);
    if (leak) return { leak };
    const out = this.held.slice(0, cut);
    this.held = this.held.slice(cut);
    this.recent = (this.recent + out).slice(-this.holdChars);
    return { release: out };
  }
}
