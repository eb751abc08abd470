/**
 * `npm run attack -- kill [--rounds 6] [--clients 20] [--messages 3000]`: starts the service, loads
 * it as the load script does, kills it with SIGKILL mid-load at a random moment, checks the database
 * (`integrity_check`) and starts it again, round after round. Then it accounts for every delete
 * across all rounds: an acknowledged delete must survive every kill. One summary line; exit 1 on
 * any lost, double or phantom delete or a database that is not sound.
 */
import { drive, FIRST_ID, Ledger } from "./load.js";
import { integrity, option, scratch, seededDb, serve, storedRows } from "./service.js";

export async function main(): Promise<number> {
  const rounds = option("rounds", 6);
  const clients = option("clients", 20);
  const messages = option("messages", 3000);
  const db = await seededDb(scratch(), messages);
  const ledger = new Ledger();
  const checks: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const service = await serve(db);
    let killed = false;
    const load = drive([service.url], clients, messages, ledger, () => killed);
    await new Promise((resolve) => setTimeout(resolve, 1000 + Math.random() * 2000));
    // Stop first, so that only requests in flight at the kill are in doubt.
    killed = true;
    await service.kill();
    await load;
    checks.push(integrity(db));
  }
  const stored = new Set(storedRows(db).keys());
  const ids = Array.from({ length: messages }, (_, i) => FIRST_ID + i);
  const { lost, double, phantom } = ledger.account(stored, ids);
  const sound = checks.filter((c) => c === "ok").length;
  console.log(
    `kill: ${rounds} SIGKILLs under load from ${clients} clients, ${ledger.requests} requests; ${ledger.acknowledged.size} deletes acknowledged, lost ${lost}, double ${double}, phantom ${phantom}, in doubt ${ledger.inDoubt.size}; integrity_check ok ${sound} of ${rounds}`,
  );
  return lost + double + phantom === 0 && sound === rounds ? 0 : 1;
}
