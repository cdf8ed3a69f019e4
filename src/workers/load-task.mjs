// What a worker thread runs: the compiled task beside its entry file when the entry sits in dist/ (npm run build),
// otherwise the TypeScript source through tsx, the same way bin/bastion.js chooses for the server.
import { existsSync } from 'node:fs';

export async function loadTask(entryUrl, name) {
  const compiled = new URL(`./${name}.js`, entryUrl);
  if (existsSync(compiled)) return (await import(compiled.href)).default;
  const { register } = await import('tsx/esm/api');
  register();
  return (await import(new URL(`./${name}.ts`, entryUrl).href)).default;
}
