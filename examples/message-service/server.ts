/** Starts the Message Retrieval Service on a store: the generated handler on `node:http`. */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createApiHandler } from "../../generated-samples/message-service/index.js";
import { createMessageService } from "./service.js";
import { openStore, type SeedFile } from "./store.js";

export interface ServerOptions {
  readonly port: number;
  readonly host: string;
  readonly dbPath: string;
  /** A seed file (accounts and messages) loaded idempotently before serving. */
  readonly seedPath?: string;
}

export interface RunningServer {
  /** The service URL, e.g. `http://127.0.0.1:8089/api.asmx`. */
  readonly url: string;
  close(): Promise<void>;
}

export function readSeed(file: string): SeedFile {
  return JSON.parse(readFileSync(file, "utf8")) as SeedFile;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const store = openStore(options.dbPath);
  if (options.seedPath) store.seed(readSeed(options.seedPath));
  const server = createServer(createApiHandler(createMessageService(store)));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/api.asmx`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          store.close();
          resolve();
        });
      }),
  };
}
