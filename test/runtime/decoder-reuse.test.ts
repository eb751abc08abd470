/**
 * The reader keeps one decoder between documents (see decodeXml): a document read after a failed
 * one, or inside another's callbacks, reads as it would alone, and the kept decoder holds nothing
 * of a document once it is read.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { complex, field, xs } from "../../runtime/src/descriptors/builders.js";
import { decodeEnvelope } from "../../runtime/src/soap/envelope.js";
import { decodeDocument, decodeXml } from "../../runtime/src/xml/reader.js";
import { XmlDecodeError, type CustomFrame } from "../../runtime/src/xml/decode-options.js";

const NS = "urn:t";
const Item = complex("Item", () => [field("n", NS, xs.int), field("s", NS, xs.string, { min: 0 })]);
const root = field(
  "Items",
  NS,
  complex("Items", () => [field("Item", NS, Item, { max: 10 })]),
);
const doc = (...ns: number[]) =>
  `<Items xmlns="urn:t">${ns.map((n) => `<Item><n>${n}</n><s>v${n}</s></Item>`).join("")}</Items>`;

describe("the kept decoder", () => {
  it("reads a document after one that failed at any point as if it were the first", () => {
    const failing = [
      `<Items xmlns="urn:t"><Item><n>1</n></Item><Item><n>x</n></Item></Items>`, // invalid value, deep inside
      `<Items xmlns="urn:t"><Item><n>1</n><s>a</s></Item><Item>`, // not closed
      `<Items xmlns="urn:t"><Item><s>a</s></Item></Items>`, // missing required element
      `<Other xmlns="urn:t"/>`, // unexpected root
    ];
    for (const bad of failing) {
      expect(() => decodeDocument(bad, [root]), bad).toThrow(XmlDecodeError);
      expect(decodeDocument(doc(1, 2), [root]).value).toEqual({
        Item: [
          { n: 1, s: "v1" },
          { n: 2, s: "v2" },
        ],
      });
      expect(
        decodeDocument(doc(3), [root], { limits: { maxDepth: 3, maxElements: 4 } }).value,
      ).toEqual({ Item: [{ n: 3, s: "v3" }] });
    }
  });

  it("a document read from inside another's callbacks is read by a decoder of its own", () => {
    const inner: unknown[] = [];
    const outer: CustomFrame = {
      child: (_ns, local) => {
        if (local === "Items") inner.push(decodeDocument(doc(7), [root]).value);
        return local === "Items" ? root : "skip";
      },
      done: (_ns, _local, value) => inner.push(value),
    };
    decodeXml(doc(1, 2), outer);
    expect(inner).toEqual([
      { Item: [{ n: 7, s: "v7" }] },
      {
        Item: [
          { n: 1, s: "v1" },
          { n: 2, s: "v2" },
        ],
      },
    ]);
  });

  it("keeps nothing a document held once it is read, or once it failed", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const big = field(
      "Items",
      NS,
      complex("Items", () => [field("Item", NS, Item, { max: 100 })]),
    );
    const refs: WeakRef<object>[] = [];
    (() => {
      const ok = decodeDocument(doc(...Array.from({ length: 50 }, (_, i) => i)), [big]).value as {
        Item: object[];
      };
      refs.push(new WeakRef(ok), new WeakRef(ok.Item[49]!));
      const env = decodeEnvelope(
        `<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body>${doc(5)}</e:Body></e:Envelope>`,
        () => big,
      );
      refs.push(new WeakRef(env.body!.value as object));
      // Not closed: the first Item was read. Given as bytes, so that a WeakRef can watch the
      // document itself, which anything kept from it (a view, a slice) would hold.
      const failed = new TextEncoder().encode(`<Items xmlns="urn:t"><Item><n>1</n></Item><Item>`);
      refs.push(new WeakRef(failed));
      expect(() => decodeDocument(failed, [big])).toThrow(/not closed/);
    })();
    // WeakRefs hold their targets until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(refs.map((r) => r.deref())).toEqual([undefined, undefined, undefined, undefined]);
  });
});
