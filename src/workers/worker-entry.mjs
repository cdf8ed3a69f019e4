// Pool threads load the TypeScript pipeline through tsx, the same way bin/bastion.js loads the server.
import { register } from 'tsx/esm/api';

register();
const task = await import('./inspect-task.ts');
export default task.default;
