/** A raw TCP connection to a loopback server, for tests that speak HTTP byte by byte. */
import { connect, type Socket } from "node:net";

export interface Raw {
  readonly socket: Socket;
  /** Everything received by the time the connection closed. */
  readonly closed: Promise<string>;
  /** What has been received so far. */
  received(): string;
  /** Resolves once the server has sent `text` (or rejects if the connection closes first). */
  until(text: string): Promise<string>;
}

/**
 * A connection to `port` from `localAddress`, once connected; kept in `sockets` to be destroyed.
 */
export async function openRaw(
  port: number,
  sockets: Socket[],
  localAddress = "127.0.0.1",
): Promise<Raw> {
  const socket = connect({ port, host: "127.0.0.1", localAddress });
  sockets.push(socket);
  let received = "";
  socket.on("data", (d: Buffer) => (received += d.toString("latin1")));
  socket.on("error", () => undefined);
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(received)));
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const until = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => received.includes(text) && resolve(received);
      socket.on("data", check);
      void closed.then(() =>
        received.includes(text)
          ? resolve(received)
          : reject(new Error(`closed after ${JSON.stringify(received)}`)),
      );
      check();
    });
  return { socket, closed, received: () => received, until };
}
