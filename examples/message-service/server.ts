/**
 * `startServer`: opens the store (seeding it if asked), and serves the generated handler on
 * `node:http`. Used by the command line (cli.ts), the demo and the tests.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createApiHandler } from "../../generated-samples/message-service/index.js";
import { readSeedFile } from "./seed-file.js";
import { createMessageService } from "./service.js";
import { open } from "./store.js";

export interface ServerOptions {
  /** 0 picks a free port. */
  readonly port: number;
  readonly host: string;
  readonly dbPath: string;
  /** A seed file (accounts and messages) loaded idempotently before serving. */
  readonly seedPath?: string;
}

export interface RunningServer {
  /** The service URL, e.g. `http://127.0.0.1:8089/api.asmx`. */
  readonly url: string;
  /** Stops listening, drops open connections and closes the store; calling it again is harmless. */
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new RangeError(`the port must be an integer from 0 to 65535, got ${options.port}`);
  }
  // Read and check the seed before touching the database, so a bad file changes nothing.
  const seed = options.seedPath === undefined ? undefined : readSeedFile(options.seedPath);
  const store = open(options.dbPath);
  const server = createServer(createApiHandler(createMessageService(store)));
  try {
    if (seed) store.seed(seed);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, options.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (e) {
    store.close();
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}/api.asmx`,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => {
          store.close();
          resolve();
        });
        server.closeAllConnections();
      })),
  };
}
