/**
 * Objects kept alive for good, so that their hidden classes (V8's maps) are. Objects made the same
 * way share maps, built as their properties are added, and a map lives only while some object has
 * it. Were every object of a kind collected (an application that drops each response after use),
 * the next ones would get new maps, and the optimized code that met the old ones would be thrown
 * away ("weak objects") and compiled again: for the decoder, after every garbage collection that
 * found no document being read. One object of each kind, made by the same code, prevents that.
 *
 * (A module-level constant nothing reads would not do: the engine need not keep it once the module
 * has run.)
 */
const kept: unknown[] = [];

export function keepShapes(...objects: readonly unknown[]): void {
  kept.push(...objects);
}
