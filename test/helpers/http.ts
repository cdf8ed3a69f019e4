import { request } from 'undici';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

/** A real HTTP request over a socket; headers are flattened to strings. */
export async function call(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; raw?: string } = {},
): Promise<Reply> {
  const hasBody = options.body !== undefined || options.raw !== undefined;
  const res = await request(url, {
    method: (options.method ?? (hasBody ? 'POST' : 'GET')) as 'GET',
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.raw ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
  });
  const body = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return { status: res.statusCode, headers, body, json: <T>() => JSON.parse(body) as T };
}
