// Closing a socket while the client is still sending makes the kernel answer the next bytes with a reset, and
// a reset can make the client's kernel drop the 413 it has not read yet: the client sees "connection reset"
// instead of the message. Like nginx's lingering close: after the answer, close our side, read and drop what
// still arrives for a short while, then close the socket.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

const LINGER_MS = 2_000;

/** Makes the server's close of this request's socket (after a `connection: close` answer) a lingering one. */
export function lingerAfterAnswer(request: IncomingMessage, lingerMs = LINGER_MS): void {
  const socket: Socket = request.socket;
  socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    // The body nobody will read: detach its readers and let it flow away.
    request.unpipe();
    request.removeAllListeners('data');
    request.resume();
    const timer = setTimeout(() => this.destroy(), lingerMs);
    this.once('close', () => clearTimeout(timer));
    this.once('end', () => this.destroy());
  };
}
