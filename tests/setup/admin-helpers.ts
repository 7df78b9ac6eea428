import http from 'node:http';
import net from 'node:net';
import { SMTPServer } from 'smtp-server';

/** An SMTP server that requires AUTH (user/pass), as the admin's mail settings do (spec §5: user and password required). */
export async function startAuthSmtpServer({ user = 'mailer', pass = 'smtp-geheim' } = {}) {
  const received: { to: string[]; raw: string }[] = [];
  let server: SMTPServer | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const instance = new SMTPServer({
        authMethods: ['PLAIN', 'LOGIN'],
        allowInsecureAuth: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        closeTimeout: 500,
        onAuth(auth, _session, callback) {
          if (auth.username === user && auth.password === pass) callback(null, { user });
          else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
            callback();
          });
        },
      });
      instance.on('error', () => {});
      instance.listen(port, '127.0.0.1', () => {
        port = (instance.server.address() as net.AddressInfo).port;
        server = instance;
        resolve();
      });
      instance.server.once('error', reject);
    });
  await listen();
  return {
    get port() {
      return port;
    },
    user,
    pass,
    received,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    start: listen,
  };
}

/** A TCP server that accepts connections and never says a word (an SMTP host that never answers). */
export async function startSilentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A tiny fake of the Stripe API: records requests; `DELETE /v1/subscriptions/<id>` answers a cancelled subscription. */
export async function startFakeStripe() {
  const requests: { method: string; path: string; authorization: string }[] = [];
  const server = http.createServer((request, response) => {
    requests.push({ method: request.method ?? '', path: request.url ?? '', authorization: String(request.headers.authorization ?? '') });
    request.resume();
    request.on('end', () => {
      const match = /^\/v1\/subscriptions\/([^/?]+)/.exec(request.url ?? '');
      response.setHeader('Content-Type', 'application/json');
      if (request.method === 'DELETE' && match) {
        response.end(JSON.stringify({ id: decodeURIComponent(match[1]), object: 'subscription', status: 'canceled' }));
      } else {
        response.statusCode = 404;
        response.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such resource' } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * An SMTP server that notes every password a client offers (to prove a stored password never
 * reaches another server). `accept`: whether it takes any login (else answers 535).
 */
export async function startPasswordTrap({ accept }: { accept: boolean }) {
  const heard: string[] = [];
  const trap = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      heard.push(String(auth.password));
      if (accept) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  return {
    heard,
    port: (trap.server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => trap.close(() => resolve())),
  };
}
