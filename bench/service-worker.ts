/**
 * Child process for the `service` bench: one server, alone in its process.
 *   generated         the generated handler over an in-memory ApiService holding Alice's seed
 *                     messages, checking the password by string comparison: the peer, no store;
 *   service <target>  the Message Retrieval Service (startServer) on a SQLite file or
 *                     PostgreSQL URL, already seeded by the parent.
 * IPC: sends { port } once listening. Exits when the parent disconnects.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startServer } from "../examples/message-service/server.js";
import { toApiMessage } from "../examples/message-service/service.js";
import type { SeedFile } from "../examples/message-service/seed-file.js";
import { readSeedFile } from "../examples/message-service/seed-file.js";
import {
  createApiHandler,
  SoapFault,
  type ApiService,
} from "../generated-samples/message-service/index.js";
import { ACCOUNT, SEED_PATH } from "./data.js";
import { exitWithParent, reply } from "./util.js";

/** Alice's seed messages as the service returns them, in its order. */
function aliceMessages(seed: SeedFile) {
  const alice = seed.accounts.find((a) => a.email === ACCOUNT.email)!;
  return (alice.messages ?? []).map((m) =>
    toApiMessage({
      Id: m.Id,
      UserId: alice.userId,
      DateArrived: m.DateArrived,
      Sender: m.Sender ?? null,
      MessageText: m.MessageText ?? null,
      MessageUrl: m.MessageUrl ?? null,
      Transcription: m.Transcription ?? null,
    }),
  );
}

async function generated(): Promise<number> {
  const list = aliceMessages(readSeedFile(SEED_PATH));
  const unused = () => {
    throw new SoapFault({ code: "Server", message: "not part of the benchmark" });
  };
  const service: ApiService = {
    getMessages: ({ email, password }) => {
      if (email !== ACCOUNT.email || password !== ACCOUNT.password)
        throw new SoapFault({ code: "Client", message: "Invalid email or password." });
      return list;
    },
    getMessagesInDateRange: unused,
    deleteMessage: unused,
  };
  const server = createServer(createApiHandler(service));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

async function service(target: string): Promise<number> {
  const server = await startServer({ port: 0, host: "127.0.0.1", dbPath: target });
  return Number(new URL(server.url).port);
}

exitWithParent();
const [kind, target] = process.argv.slice(2);
const port = kind === "generated" ? await generated() : await service(target!);
await reply({ port });
