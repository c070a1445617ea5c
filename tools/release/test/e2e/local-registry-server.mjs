// Runs verdaccio in this one process on 127.0.0.1 and a port the OS picks, prints
// "listening <port>" once it accepts connections, and exits as soon as its standard input
// closes: the test holds the other end, so the registry cannot outlive the test run, even
// when the test process dies without cleaning up.
import { runServer } from 'verdaccio';

const configFile = process.argv[2];
if (configFile === undefined) {
  process.stderr.write('usage: local-registry-server.mjs CONFIG\n');
  process.exit(2);
}
const app = await runServer(configFile);
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
const stop = () => {
  server.closeAllConnections?.();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
