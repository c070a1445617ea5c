// Preload for third-party servers that listen on a bare port (all interfaces): the benchmark
// keeps everything on 127.0.0.1, so a listen(port[, callback]) is given the loopback host.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  if (typeof args[0] === 'number' && (args.length === 1 || typeof args[1] === 'function')) args.splice(1, 0, '127.0.0.1');
  return listen.apply(this, args);
};
