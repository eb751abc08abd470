/**
 * Samples of choices (runtime/src/descriptors/sample-values.ts; the mock's and the help pages'):
 * of a choice, the first branch only, so that a sample is valid by the schema (issue #32, where
 * every branch was given); of a repeated choice, an ordered list of items of its first branch; of
 * a repeated sequence holding a choice, each occurrence whole, with the choice's first branch.
 */
import { describe, expect, it } from "vitest";
import { sampleInput, sampleOutput } from "../../runtime/src/index.js";
import { FeaturesDesc } from "../../generated-samples/xsd-features/descriptors.js";
import { MailboxDesc } from "../../generated-samples/choices/descriptors.js";

describe("a sample of a choice", () => {
  it("holds its first branch only", () => {
    const order = sampleInput(FeaturesDesc, "order");
    expect(order).toHaveProperty("Circle");
    for (const other of ["Code", "Width", "Height"]) expect(order).not.toHaveProperty(other);
    // A branch that is an array is given its items; the others are absent, not empty.
    expect(sampleInput(MailboxDesc, "getItems")).toEqual({
      Shape: "string",
      // Repeated items differ (an xs:unique over them holds): the second is numbered.
      ItemId: [{ Id: "string" }, { Id: "string 2" }],
    });
  });

  it("of a repeated choice, or of a repeated sequence holding one, is an ordered list of items", () => {
    const stored = sampleInput(MailboxDesc, "storeItems");
    const message = (Subject: string, Size: number) => ({
      $choice: "Message",
      value: { Subject, Size },
    });
    expect(stored.Items).toEqual({ Items: [message("string", 6), message("string 2", 106)] });
    expect(stored.Changes?.Items?.map((i) => i.$choice)).toEqual([
      "ChangeKey",
      "Created",
      "ChangeKey",
      "Created",
    ]);
    const answered = sampleOutput(MailboxDesc, "getItems");
    expect(answered.Items.map((i) => i.$choice)).toEqual([
      "GetItemsResponseMessage",
      "GetItemsResponseMessage",
    ]);
  });
});
