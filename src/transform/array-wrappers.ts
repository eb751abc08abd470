import { arrayWrapperItem } from "../model/value-shapes.js";
import type { Pass } from "./plan.js";

/** Finds the types the API shows as plain arrays (`ArrayOfX`; see arrayWrapperItem). */
export const arrayWrappers: Pass = {
  name: "array-wrappers",
  run(plan) {
    for (const t of plan.model.types) {
      if (t.kind !== "complex") continue;
      const item = arrayWrapperItem(t);
      if (item) plan.arrayItems.set(t, item);
    }
  },
};
