/**
 * npm run collect:mcp-definitions — the benign side of the tool-definition corpus: runs each public MCP server
 * package installed in node_modules over stdio with the SDK's own Client, asks `tools/list`, and writes every tool
 * (name, title, description, inputSchema) to datasets/mcp-tool-definitions/benign/<package>.jsonl with the
 * package's name, version and licence. The servers are only listed, never called: no network, no files touched
 * (the filesystem server is rooted in a fresh temporary directory, the memory server writes to one).
 * Then every tool list documented in datasets/mcp-tool-definitions/docs/*.md (a server's README, in the usual
 * `- **name** - description` / `  - \`param\`: description (type, required)` form) is converted the same way.
 * `--docs-only` skips the servers.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

interface ServerSpec {
  pkg: string;
  /** Script inside the package, relative to its folder. */
  entry: string;
  args: (scratch: string) => string[];
  env?: (scratch: string) => Record<string, string>;
}

const SERVERS: ServerSpec[] = [
  { pkg: '@modelcontextprotocol/server-everything', entry: 'dist/index.js', args: () => ['stdio'] },
  { pkg: '@modelcontextprotocol/server-filesystem', entry: 'dist/index.js', args: (s) => [s] },
  { pkg: '@modelcontextprotocol/server-memory', entry: 'dist/index.js', args: () => [], env: (s) => ({ MEMORY_FILE_PATH: join(s, 'memory.jsonl') }) },
  // The GitHub server refuses to start without a token variable; listing tools never uses it.
  { pkg: '@modelcontextprotocol/server-github', entry: 'dist/index.js', args: () => [], env: () => ({ GITHUB_PERSONAL_ACCESS_TOKEN: 'not-used-for-listing' }) },
  // Playwright's MCP server ships inside playwright-core; --caps adds the optional tool groups. No browser starts.
  { pkg: 'playwright-core', entry: 'cli.js', args: () => ['mcp', '--caps', 'vision,pdf,devtools,network,storage,testing,config'] },
];

const OUT = fileURLToPath(new URL('../datasets/mcp-tool-definitions/benign/', import.meta.url));
const DOCS = fileURLToPath(new URL('../datasets/mcp-tool-definitions/docs/', import.meta.url));
/** The packages' own licence field says 'SEE LICENSE IN LICENSE' but ships no file; their READMEs say MIT. */
const LICENSE_FROM_README: Record<string, string> = {
  '@modelcontextprotocol/server-everything': 'MIT (README)',
  '@modelcontextprotocol/server-filesystem': 'MIT (README)',
  '@modelcontextprotocol/server-memory': 'MIT (README)',
};
const require = createRequire(import.meta.url);

for (const spec of process.argv.includes('--docs-only') ? [] : SERVERS) {
  const pkgJson = require.resolve(`${spec.pkg}/package.json`);
  const meta = JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string; license?: string };
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-collect-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(pkgJson, '..', spec.entry), ...spec.args(scratch)],
    env: { PATH: process.env.PATH ?? '', HOME: scratch, ...spec.env?.(scratch) },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bastion-collect', version: '1.0.0' });
  try {
    await client.connect(transport);
    const tools = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const lines = tools.map((t) =>
      JSON.stringify({ source: spec.pkg, version: meta.version, license: LICENSE_FROM_README[spec.pkg] ?? meta.license ?? 'unknown', name: t.name, ...(t.title ? { title: t.title } : {}), description: t.description ?? '', inputSchema: t.inputSchema }),
    );
    const file = `${spec.pkg.replace(/^@/, '').replace(/\//g, '__')}.jsonl`;
    writeFileSync(join(OUT, file), lines.join('\n') + '\n');
    console.log(`${spec.pkg}@${meta.version}: ${tools.length} tools → ${file}`);
  } finally {
    await client.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `- **name** - description` then `  - \`param\`: description (type, required|optional)` lines, as READMEs list tools. */
function parseDocumentedTools(markdown: string): { name: string; description: string; inputSchema: Record<string, unknown> }[] {
  const tools: { name: string; description: string; inputSchema: { type: 'object'; properties: Record<string, unknown>; required: string[] } }[] = [];
  for (const line of markdown.split('\n')) {
    const tool = /^- \*\*([^*]+)\*\* - (.+)$/.exec(line);
    if (tool) {
      tools.push({ name: tool[1]!, description: tool[2]!.trim(), inputSchema: { type: 'object', properties: {}, required: [] } });
      continue;
    }
    const param = /^\s+- `([^`]+)`: (.*) \(([a-z\[\]]+), (required|optional)\)$/.exec(line);
    const current = tools[tools.length - 1];
    if (!param || !current) continue;
    const [, name, description, type, required] = param as unknown as [string, string, string, string, string];
    current.inputSchema.properties[name] = type.endsWith('[]') ? { type: 'array', items: { type: type.slice(0, -2) }, description } : { type, description };
    if (required === 'required') current.inputSchema.required.push(name);
  }
  return tools;
}

for (const file of readdirSync(DOCS).filter((f) => f.endsWith('.md')).sort()) {
  const markdown = readFileSync(join(DOCS, file), 'utf8');
  const header = /<!-- source: (\S+) .*?\(commit ([0-9a-f]{40})\), ([^.]+) licence/.exec(markdown);
  if (!header) throw new Error(`${file}: the first line must name the source, commit and licence`);
  const tools = parseDocumentedTools(markdown);
  const lines = tools.map((t) => JSON.stringify({ source: `${header[1]} (documentation)`, version: header[2], license: header[3], ...t }));
  writeFileSync(join(OUT, file.replace(/\.md$/, '.jsonl')), lines.join('\n') + '\n');
  console.log(`${file}: ${tools.length} documented tools`);
}
