/**
 * `sampleInput` and `sampleOutput`: a client sending an operation's sample input to a server
 * whose implementation returns its sample output gets back a value equal to that sample, on every
 * port that has the operation, and the server receives one equal to the sample input. Samples are
 * typed from the descriptor (no cast) and the same, in new objects, on every call. The corpus
 * goldens are checked the same way (skipped, saying so, without the corpus).
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  ApiClient,
  createApiHandler,
  type ApiService,
  type ArrayOfMessagesInput,
  type GetMessagesInDateRangeInput,
} from "../../generated-samples/message-service/index.js";
import { ApiDesc } from "../../generated-samples/message-service/descriptors.js";
import {
  createFeaturesHandler,
  FeaturesClient,
  type OrderInput,
  type OrderResponseInput,
} from "../../generated-samples/xsd-features/index.js";
import { FeaturesDesc } from "../../generated-samples/xsd-features/descriptors.js";
import { createShippingHandler, ShippingClient } from "../../generated-samples/multipart/index.js";
import { ShippingDesc } from "../../generated-samples/multipart/descriptors.js";
import {
  sampleInput,
  sampleOutput,
  type AnyServiceDesc,
  type ClientClass,
  type ClientOptionsOf,
  type PartialImplementation,
  type RequestListener,
} from "../../runtime/src/index.js";
import { CORPUS_GOLDENS, corpusPresent, SKIP_LINE } from "../../scripts/corpus-goldens.js";
import { loadGolden } from "../support/golden-services.js";
import { listen } from "../support/loopback.js";

interface Served<S extends AnyServiceDesc> {
  readonly desc: S;
  /** Its client class: typed by the generated client interface, so only its options are read. */
  readonly client: new (options: never) => object;
  readonly handler: (impl: PartialImplementation<S>) => RequestListener;
  /** The path of the service's ports. */
  readonly path: string;
  /** The ports called (all when absent). */
  readonly ports?: readonly string[];
}

const SERVICES = {
  "message service": {
    desc: ApiDesc,
    client: ApiClient,
    handler: createApiHandler,
    path: "/api.asmx",
  },
  "xsd-features": {
    desc: FeaturesDesc,
    client: FeaturesClient,
    handler: createFeaturesHandler,
    path: "/features",
  },
  "multi-part bodies": {
    desc: ShippingDesc,
    client: ShippingClient,
    handler: createShippingHandler,
    path: "/shipping",
  },
} satisfies Record<string, Served<AnyServiceDesc>>;

/** Each method's sample output, with what each call of it received. */
function sampleImplementation<S extends AnyServiceDesc>(desc: S, received: unknown[]) {
  const impl = Object.fromEntries(
    Object.keys(desc.methods).map((m) => [
      m,
      (input: unknown) => {
        received.push(input);
        return sampleOutput(desc, m);
      },
    ]),
  );
  // Built from the descriptor's method names at run time: its type is known only to the caller.
  return impl as unknown as PartialImplementation<S>;
}

async function roundTrip<S extends AnyServiceDesc>(served: Served<S>): Promise<number> {
  const { desc } = served;
  const received: unknown[] = [];
  const s = await listen(served.handler(sampleImplementation(desc, received)));
  let calls = 0;
  try {
    for (const port of Object.values(desc.ports)) {
      if (served.ports && !served.ports.includes(port.name)) continue;
      const routed = new Set<string>();
      const options = { endpoint: s.url + served.path, port: port.name } as ClientOptionsOf<S>;
      const client = new served.client(options as never);
      for (const [method, operation] of Object.entries(desc.methods as Record<string, string>)) {
        const op = port.operations[operation];
        if (!op) continue;
        // Operations whose requests are alike on the wire (some corpus WSDLs have them) reach one.
        const route = op.kind === "http" ? op.location : `${op.action} ${op.request?.element.name}`;
        if (routed.has(route)) continue;
        routed.add(route);
        const call = client[method as keyof typeof client] as (input: unknown) => Promise<unknown>;
        const result = await call.call(client, sampleInput(desc, method));
        expect(result, `${method} over ${port.name}`).toEqual(sampleOutput(desc, method));
        expect(received.pop(), `${method}'s input over ${port.name}`).toEqual(
          sampleInput(desc, method),
        );
        calls++;
      }
    }
  } finally {
    await s.close();
  }
  return calls;
}

describe("sampleInput and sampleOutput", () => {
  for (const [name, served] of Object.entries(SERVICES))
    it(`round-trip through the generated client and server of the ${name}, on every port`, async () => {
      const calls = await roundTrip<AnyServiceDesc>(served);
      expect(calls).toBe(
        Object.values(served.desc.methods).reduce(
          (n, op) =>
            n +
            Object.values(served.desc.ports).filter((p) => p.operations[op] !== undefined).length,
          0,
        ),
      );
    });

  it("are typed by the descriptor: an implementation returns them without a cast", () => {
    expectTypeOf(sampleOutput(ApiDesc, "getMessages")).toEqualTypeOf<
      ArrayOfMessagesInput | undefined
    >();
    expectTypeOf(sampleOutput(ApiDesc, "deleteMessage")).toEqualTypeOf<void>();
    expectTypeOf(
      sampleInput(ApiDesc, "getMessagesInDateRange"),
    ).toEqualTypeOf<GetMessagesInDateRangeInput>();
    expectTypeOf(sampleInput(FeaturesDesc, "order")).toEqualTypeOf<OrderInput>();
    expectTypeOf(sampleOutput(FeaturesDesc, "order")).toEqualTypeOf<OrderResponseInput>();
    const impl: ApiService = {
      getMessages: () => sampleOutput(ApiDesc, "getMessages"),
      getMessagesInDateRange: () => sampleOutput(ApiDesc, "getMessagesInDateRange"),
      deleteMessage: () => sampleOutput(ApiDesc, "deleteMessage"),
    };
    expect(impl.getMessages({}, {} as never)).toEqual(sampleOutput(ApiDesc, "getMessages"));
    // @ts-expect-error: not a method of the service
    expect(() => sampleInput(ApiDesc, "getMessage")).toThrow(
      "The service Api has no method 'getMessage'.",
    );
  });

  it("are equal on every call, in new objects", () => {
    for (const { desc } of Object.values(SERVICES) as Served<AnyServiceDesc>[])
      for (const m of Object.keys(desc.methods)) {
        const [a, b] = [sampleInput(desc, m), sampleInput(desc, m)];
        expect(a).toEqual(b);
        if (typeof a === "object" && a !== null) expect(a).not.toBe(b);
        expect(sampleOutput(desc, m)).toEqual(sampleOutput(desc, m));
      }
  });

  it("hold every field of the message service's results, with the sample's own values", () => {
    const all = sampleOutput(ApiDesc, "getMessages")!;
    expect(all).toHaveLength(2);
    expect(all[0]).not.toBe(all[1]);
    expect(Object.keys(all[0]!)).toEqual([
      "DateArrived",
      "UserId",
      "Sender",
      "MessageText",
      "MessageUrl",
      "Transcription",
      "Id",
    ]);
    expect(sampleOutput(ApiDesc, "deleteMessage")).toBeUndefined();
  });
});

const present = corpusPresent();
if (!present) console.log(SKIP_LINE);

describe.skipIf(!present)("sampleInput and sampleOutput over the corpus goldens", () => {
  for (const g of CORPUS_GOLDENS)
    it(`${g.name}: round-trip on every port`, async () => {
      let calls = 0;
      for (const s of (await loadGolden(g)).services) {
        const path = (address: string) =>
          new URL(address, "http://localhost").pathname.replace(/\/+$/, "");
        for (const port of Object.values(s.desc.ports))
          calls += await roundTrip({
            desc: s.desc,
            client: s.Client as unknown as ClientClass<AnyServiceDesc>,
            handler: s.createHandler as Served<AnyServiceDesc>["handler"],
            path: path(port.address),
            ports: [port.name],
          });
      }
      expect(calls).toBeGreaterThan(0);
    }, 120_000);
});
