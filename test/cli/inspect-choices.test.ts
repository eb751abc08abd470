/**
 * `inspect` shows a choice as a choice (issue #32): its branches as alternatives, a repeated one as
 * one ordered list of its elements; never each branch as a required parameter.
 */
import { describe, expect, it } from "vitest";
import { loadWsdl } from "../../src/generate.js";
import { describeModel } from "../../src/inspect.js";

describe("inspect", () => {
  it("shows the branches of a choice as alternatives, and a repeated choice as one list", async () => {
    const text = describeModel((await loadWsdl("fixtures/choices/choices.wsdl")).model!);
    expect(text).toContain(
      "GetItems(Shape: xs:string, (ItemId: ItemIdType[] | FolderId: xs:string[] | DistinguishedFolder: xs:string)):",
    );
    expect(text).toContain(
      "ArrayOfItemsType { Items?: (Message: MessageType | CalendarItem: CalendarItemType)[] }",
    );
    expect(text).toContain(
      "ChangesType { Items?: (ChangeKey: xs:string | Created: MessageType | Deleted: ItemIdType)[] }",
    );
    expect(text).toContain("ArrayOfResponseMessagesType { Items: (GetItemsResponseMessage: ");
  });

  it("shows a sequence branch's elements together, and an optional choice with `?`", async () => {
    const text = describeModel((await loadWsdl("fixtures/xsd-features/features.wsdl")).model!);
    expect(text).toContain(
      "Day?: xs:date, (Circle: Circle | Code: xs:string | Width: xs:double, Height: xs:double), Price: Price",
    );
  });
});
