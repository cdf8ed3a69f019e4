import { connect } from 'node:net';
import t from 'tap';
import { startTestGateway } from '../helpers/gateway.js';

/** Whether a TCP connection to host:port is accepted. */
function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

t.test('BASTION_ADMIN_HOST binds the admin listener apart from the data plane (a sidecar exposing its console)', async (t) => {
  // Two loopback addresses stand in for "loopback" and "the pod IP".
  const gw = await startTestGateway(t, { config: { host: '127.0.0.1', adminHost: '127.0.0.2' } });
  t.equal(await reachable('127.0.0.2', gw.ports.admin), true, 'admin on its own address');
  t.equal(await reachable('127.0.0.1', gw.ports.admin), false, 'admin not on the data-plane address');
  t.equal(await reachable('127.0.0.1', gw.ports.proxy), true, 'data plane on BASTION_HOST');
  t.equal(await reachable('127.0.0.2', gw.ports.proxy), false, 'data plane not on the admin address');
});

t.test('unset, the admin listener shares BASTION_HOST', async (t) => {
  const gw = await startTestGateway(t, { config: { host: '127.0.0.1' } });
  t.equal(gw.services.config.adminHost, undefined);
  t.equal(await reachable('127.0.0.1', gw.ports.admin), true);
});
