/**
 * Chat content parts (OpenAI `messages[].content` arrays): which ones Bastion reads as text, and how.
 * - `text` (and an assistant's `refusal`) parts are text.
 * - `file` parts whose `file_data` is a base64 data URL (or bare base64 with a text file name) of a text MIME type
 *   (text/*, JSON, XML, YAML, CSV, Markdown, TOML, SQL, shell…) are decoded as UTF-8 and inspected like text; a
 *   redaction is written back as base64 of the same MIME type.
 * - Everything else (images, audio, binary or id-only files, non-UTF-8 data, unknown part types) cannot be inspected:
 *   it is counted by type so the verdict and the x-bastion-uninspected-parts header say so, and the tenant policy
 *   `content_parts` decides whether it is forwarded (inspect) or refused (block_unknown).
 */

export interface ContentPart {
  type?: string;
  text?: string;
  refusal?: string;
  file?: { file_data?: string; file_id?: string; filename?: string };
  [field: string]: unknown;
}

export type PartReading =
  | { text: string; field: 'text' | 'refusal' }
  | { text: string; field: 'file'; mime: string }
  | { uninspectable: string };

const TEXT_MIME = /^(text\/[a-z0-9.+-]+|application\/(json|[a-z0-9.-]+\+json|x-ndjson|ndjson|xml|[a-z0-9.-]+\+xml|ya?ml|x-ya?ml|toml|x-toml|sql|x-sh|x-shellscript|javascript|x-javascript|ecmascript|typescript|x-python|x-httpd-php|csv|markdown|x-markdown|graphql|ld\+json))$/;
const TEXT_EXTENSION: Record<string, string> = {
  txt: 'text/plain', md: 'text/markdown', markdown: 'text/markdown', csv: 'text/csv', tsv: 'text/tab-separated-values', json: 'application/json',
  jsonl: 'application/x-ndjson', ndjson: 'application/x-ndjson', xml: 'application/xml', yaml: 'application/yaml', yml: 'application/yaml',
  toml: 'application/toml', html: 'text/html', htm: 'text/html', sql: 'application/sql', sh: 'application/x-sh', log: 'text/plain',
  ini: 'text/plain', cfg: 'text/plain', conf: 'text/plain', py: 'text/x-python', js: 'text/javascript', ts: 'text/plain', rst: 'text/plain',
};
// data:[<mime>][;param=value]*;base64,<data> — parameters bounded so the match stays linear.
const DATA_URL = /^data:([a-z0-9.+-]{1,64}\/[a-z0-9.+-]{1,128})((?:;[a-z0-9-]{1,32}=[a-z0-9.+-]{1,64}){0,8});base64,/i;
// One character class then at most two '=': linear, no backtracking blow-up on a long invalid payload.
const BASE64 = /^[A-Za-z0-9+/\-_\s]*={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads one content part: its inspectable text, or the type under which it is reported as uninspectable. */
export function readPart(part: ContentPart | null | undefined): PartReading {
  if (!part || typeof part !== 'object') return { uninspectable: 'invalid' };
  if (typeof part.text === 'string') return { text: part.text, field: 'text' };
  if (part.type === 'refusal' && typeof part.refusal === 'string') return { text: part.refusal, field: 'refusal' };
  if (part.type === 'file') return readFile(part.file);
  return { uninspectable: typeof part.type === 'string' ? part.type.slice(0, 32) : 'unknown' };
}

function readFile(file: ContentPart['file']): PartReading {
  const data = file?.file_data;
  if (typeof data !== 'string') return { uninspectable: 'file' }; // a file_id only: content Bastion never sees
  const header = DATA_URL.exec(data.slice(0, 320));
  const extension = typeof file?.filename === 'string' ? /\.([A-Za-z0-9]{1,10})$/.exec(file.filename)?.[1]?.toLowerCase() : undefined;
  const mime = header ? header[1].toLowerCase() : extension ? TEXT_EXTENSION[extension] : undefined;
  const charset = header ? /;charset=([^;]+)/i.exec(header[2])?.[1]?.toLowerCase() : undefined;
  if (!mime || !TEXT_MIME.test(mime) || (charset && charset !== 'utf-8' && charset !== 'utf8' && charset !== 'us-ascii')) return { uninspectable: 'file' };
  const payload = header ? data.slice(header[0].length) : data;
  if (!BASE64.test(payload.trimEnd())) return { uninspectable: 'file' };
  try {
    return { text: utf8.decode(Buffer.from(payload, 'base64')), field: 'file', mime };
  } catch {
    return { uninspectable: 'file' }; // not UTF-8: binary whatever the label says
  }
}

/** Writes redacted text back into a part (for file parts: base64 of the same MIME type, file name kept). */
export function writePart(part: ContentPart, reading: Exclude<PartReading, { uninspectable: string }>, text: string): void {
  if (reading.field === 'file') part.file = { ...part.file, file_data: `data:${reading.mime};base64,${Buffer.from(text, 'utf8').toString('base64')}` };
  else part[reading.field] = text;
}
