/**
 * Heading ids as GitHub writes them, so a `#fragment` link works the same on the served page as on the repository:
 * inline Markdown dropped, lower case, every character but letters, digits, spaces, `-` and `_` removed, spaces to
 * `-`; a repeated slug gets `-1`, `-2`… in order.
 */
export function slugger(): (markdownText: string) => string {
  const seen = new Map<string, number>();
  return (markdownText) => {
    const base = plain(markdownText)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base);
    seen.set(base, (n ?? -1) + 1);
    return n === undefined ? base : `${base}-${n + 1}`;
  };
}

/** The text a reader sees: link targets, emphasis markers and code ticks removed; entities as their characters. */
function plain(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();
}
