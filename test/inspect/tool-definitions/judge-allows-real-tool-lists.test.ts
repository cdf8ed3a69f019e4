import t from 'tap';
import { judgeToolDefinitions } from '../../../src/inspect/tool-definitions/index.js';
import { benignList, inspectText } from './helpers.js';

// The tool lists of the public MCP servers installed as dev dependencies, as collected by
// `npm run collect:mcp-definitions`: each list judged as one tools/list, the others as the other servers' tools.
const LISTS = ['modelcontextprotocol__server-everything', 'modelcontextprotocol__server-filesystem', 'modelcontextprotocol__server-memory', 'modelcontextprotocol__server-github', 'playwright-core'];

for (const list of LISTS) {
  t.test(`every tool of ${list} is allowed`, async (t) => {
    const tools = benignList(list);
    t.ok(tools.length >= 9, 'the collected list is there');
    const others = LISTS.filter((l) => l !== list).flatMap((l) => benignList(l).map((tool) => tool.name));
    const verdicts = await judgeToolDefinitions(tools, inspectText, { otherToolNames: others });
    t.same(verdicts.filter((v) => v.action === 'block').map((v) => v.name), []);
    t.same(verdicts.map((v) => v.name), tools.map((tool) => tool.name), 'one verdict per tool, in order');
  });
}

t.test('ordinary imperative tool language is allowed', async (t) => {
  const verdicts = await judgeToolDefinitions(
    [
      { name: 'write_file', description: 'Create a new file or overwrite an existing one. Always provide an absolute path. Do not use this tool to append; use edit_file instead.' },
      { name: 'edit_file', description: 'Make line-based edits to a text file. Use this tool when you need to change part of a file. Returns a git-style diff.' },
      { name: 'send_email', description: 'Send an e-mail on behalf of the user. Ask the user to confirm the recipients before sending.' },
    ],
    inspectText,
  );
  t.same(verdicts.map((v) => v.action), ['allow', 'allow', 'allow']);
});
