/** OpenAPI pieces of the proxy's data-plane route. */
export const Params = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$', description: 'The upstream server name the tenant registered (admin POST /mcp/servers)' } },
} as const;

export const postDescription = [
  'Speak MCP (Streamable HTTP) to the upstream MCP server your tenant registered under {name}, authenticated with your Bastion API key;',
  'Bastion holds the upstream credential. Every message is relayed one by one (SSE answers event by event, never buffered whole).',
  'Agent → server: a tools/call is refused with a JSON-RPC error (code -32050, verdict in error.data.bastion) when the tool is not allowed,',
  'not yet listed, changed since it was approved (withheld until a tenant admin approves the new version), its definition is poisoned,',
  'or its arguments are judged dangerous by effect; credentials in arguments are redacted. Server → agent: tools/list hides withheld tools',
  '(named in result._meta["bastion/withheld"]); tool results, resources/read contents, prompts/get messages and initialize instructions are',
  'judged like tool output (injection → JSON-RPC error -32051, credentials and PII redacted in place); sampling/createMessage and',
  'elicitation/create requests are judged as untrusted prompts. An upstream that fails before answering → JSON-RPC error -32052.',
  'Mcp-Session-Id is bound to your tenant. tools/call, resources/read and prompts/get each count one unit of the monthly quota.',
].join(' ');
