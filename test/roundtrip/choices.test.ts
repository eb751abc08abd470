/**
 * Choices as a mail service has them (fixtures/choices, issue #32), through the generated client
 * and server over loopback: a repeated choice (Message A, CalendarItem B, Message C) keeps its
 * order both ways, as one ordered list of `{ $choice, value }` items, and on the wire; so does a
 * repeated sequence holding a choice; an input takes one branch of a choice and no empty arrays of
 * the others; an implementation returns only the response messages it has. The types say so too.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  MailboxClient,
  XsdDateTime,
  createMailboxHandler,
  type ArrayOfItemsType,
  type ArrayOfItemsTypeInput,
  type ArrayOfResponseMessagesTypeInput,
  type ChangesTypeInput,
  type GetItems,
  type StoreItems,
  type StoreItemsInput,
} from "../../generated-samples/choices/index.js";
import { ArrayOfResponseMessagesType, NS } from "../../generated-samples/choices/descriptors.js";
import { writeElement } from "../../runtime/src/xml/writer.js";
import { listen, type Loopback } from "../support/loopback.js";

let stored: StoreItems | undefined;
let asked: GetItems | undefined;
let lb: Loopback;
let client: MailboxClient;
const requests: string[] = [];
beforeAll(async () => {
  const handler = createMailboxHandler({
    storeItems(input) {
      stored = input;
      return input;
    },
    getItems(input) {
      asked = input;
      // Only the messages it has: no empty arrays of the other kinds.
      return {
        Items: [
          { $choice: "GetItemsResponseMessage", value: { Code: "NoError" } },
          { $choice: "ErrorResponseMessage", value: "not found" },
          { $choice: "GetItemsResponseMessage", value: { Code: "NoError", Items: {} } },
        ],
      };
    },
  });
  lb = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => requests.push(Buffer.concat(chunks).toString("utf8")));
    handler(req, res);
  });
  client = new MailboxClient({ endpoint: `${lb.url}/mailbox` });
});
afterAll(() => lb.close());

const A = { Subject: "A", Size: 1 };
const B = { Subject: "B", Start: "2024-03-10T12:00:00Z" };
const C = { Subject: "C" };

describe("a repeated choice", () => {
  it("keeps the order of its elements, A, B, A, through the client and the server and back", async () => {
    const input: StoreItemsInput = {
      Items: {
        Items: [
          { $choice: "Message", value: A },
          { $choice: "CalendarItem", value: B },
          { $choice: "Message", value: C },
        ],
      },
    };
    requests.length = 0;
    const back = await client.storeItems(input);
    const expected: ArrayOfItemsType["Items"] = [
      { $choice: "Message", value: A },
      { $choice: "CalendarItem", value: { Subject: "B", Start: new XsdDateTime(B.Start) } },
      { $choice: "Message", value: C },
    ];
    expect(stored!.Items.Items).toEqual(expected);
    expect(back.Items.Items).toEqual(expected);
    // On the wire, in that order.
    const body = requests[0]!;
    const order = [...body.matchAll(/<(Message|CalendarItem)>/g)].map((m) => m[1]);
    expect(order).toEqual(["Message", "CalendarItem", "Message"]);
  });

  it("reads as an empty list when it has no element, and may be left out of an input", async () => {
    const back = await client.storeItems({ Items: {} });
    expect(back.Items).toEqual({ Items: [] });
  });

  it("keeps a repeated sequence holding a choice in order: key, then what became of the item", async () => {
    const changes: ChangesTypeInput = {
      Items: [
        { $choice: "ChangeKey", value: "k1" },
        { $choice: "Deleted", value: { Id: "7" } },
        { $choice: "ChangeKey", value: "k2" },
        { $choice: "Created", value: A },
        { $choice: "ChangeKey", value: "k3" },
        { $choice: "Deleted", value: { Id: "8" } },
      ],
    };
    const back = await client.storeItems({ Items: { Items: [] }, Changes: changes });
    expect(stored!.Changes).toEqual(changes);
    expect(back.Changes).toEqual(changes);
  });

  it("refuses an item whose $choice names no element of it, saying which it takes", async () => {
    const wrong = [{ $choice: "Task", value: A }] as unknown as NonNullable<
      ArrayOfItemsTypeInput["Items"]
    >;
    await expect(client.storeItems({ Items: { Items: wrong } })).rejects.toThrow(
      "Items.Items[0].$choice 'Task' is not one of 'Message', 'CalendarItem'",
    );
  });
});

describe("a choice on input", () => {
  it("takes one branch, with no empty arrays of the others", async () => {
    const messages = await client.getItems({ Shape: "Default", FolderId: ["inbox", "sent"] });
    expect(asked).toEqual({ Shape: "Default", FolderId: ["inbox", "sent"] });
    // An implementation returned only the messages it has, in its order.
    expect(messages.Items.map((m) => m.$choice)).toEqual([
      "GetItemsResponseMessage",
      "ErrorResponseMessage",
      "GetItemsResponseMessage",
    ]);
    await client.getItems({ Shape: "Default", DistinguishedFolder: "inbox" });
    expect(asked).toEqual({ Shape: "Default", DistinguishedFolder: "inbox" });
  });

  it("a required repeated choice refuses an empty list, saying so", () => {
    const write = (value: unknown) =>
      writeElement([], "R", NS, "", ArrayOfResponseMessagesType, value, false, "R", "");
    expect(() => write({ Items: [] })).toThrow("R.Items needs at least 1 item (minOccurs); got 0");
    expect(() => write({})).toThrow("R.Items is required (at least 1 item)");
  });
});

describe("the types", () => {
  it("let an input give one branch of a choice without the others", () => {
    const byId: GetItems = { Shape: "IdOnly", ItemId: [{ Id: "1" }] };
    const byFolder: GetItems = { Shape: "IdOnly", DistinguishedFolder: "inbox" };
    const items: ArrayOfItemsTypeInput = {};
    const result: ArrayOfResponseMessagesTypeInput = {
      Items: [{ $choice: "ErrorResponseMessage", value: "none" }],
    };
    expect([byId, byFolder, items, result]).toHaveLength(4);
    expectTypeOf<ArrayOfItemsType["Items"][number]>().toEqualTypeOf<
      | { $choice: "Message"; value: { Subject: string; Size?: number } }
      | { $choice: "CalendarItem"; value: { Subject: string; Start: XsdDateTime } }
    >();
  });

  it("keep a choice exclusive: two branches, or an item's value of another element, do not compile", () => {
    // @ts-expect-error two branches of an exclusive choice at once
    const both: GetItems = { Shape: "IdOnly", ItemId: [{ Id: "1" }], DistinguishedFolder: "inbox" };
    // @ts-expect-error no branch of a required choice
    const none: GetItems = { Shape: "IdOnly" };
    const wrongValue: ArrayOfItemsTypeInput = {
      // @ts-expect-error a CalendarItem's value needs its Start
      Items: [{ $choice: "CalendarItem", value: { Subject: "x" } }],
    };
    const twoInOne: ArrayOfItemsTypeInput = {
      // @ts-expect-error one item is one element: no second value beside it
      Items: [{ $choice: "Message", value: A, CalendarItem: B }],
    };
    expect([both, none, wrongValue, twoInOne]).toHaveLength(4);
  });
});
