// Pool threads run the compiled pipeline when this file sits in dist/ (npm run build) and load the TypeScript
// sources through tsx otherwise, the same way bin/bastion.js chooses for the server.
import { existsSync } from 'node:fs';

const compiled = new URL('./inspect-task.js', import.meta.url);
let task;
if (existsSync(compiled)) {
  task = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  task = await import('./inspect-task.ts');
}
export default task.default;
