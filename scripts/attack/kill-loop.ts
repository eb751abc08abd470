/**
 * `npm run attack -- kill [--rounds 6] [--clients 20] [--messages 3000] [--postgres] [--instances
 * 1]`: starts the service (or several processes on one store), loads it as the load script does,
 * kills it with SIGKILL mid-load at a random moment, checks the database (`integrity_check`) and
 * starts it again, round after round. Then it accounts for every delete across all rounds: an
 * acknowledged delete must survive every kill. One summary line; exit 1 on any lost, double or
 * phantom delete or a database that is not sound.
 */
import { drive, FIRST_ID, Ledger } from "./load.js";
import { option, seededTarget, serve } from "./service.js";

export async function main(): Promise<number> {
  const rounds = option("rounds", 6);
  const clients = option("clients", 20);
  const messages = option("messages", 3000);
  const instances = option("instances", 1);
  const target = await seededTarget(messages);
  const ledger = new Ledger();
  const checks: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const services = await Promise.all(Array.from({ length: instances }, () => serve(target.db)));
    let killed = false;
    const urls = services.map((s) => s.url);
    const load = drive(urls, clients, messages, ledger, () => killed);
    await new Promise((resolve) => setTimeout(resolve, 1000 + Math.random() * 2000));
    // Stop first, so that only requests in flight at the kill are in doubt.
    killed = true;
    await Promise.all(services.map((s) => s.kill()));
    await load;
    checks.push(await target.integrity());
  }
  const stored = new Set((await target.rows()).keys());
  const ids = Array.from({ length: messages }, (_, i) => FIRST_ID + i);
  const { lost, double, phantom } = ledger.account(stored, ids);
  const sound = checks.filter((c) => c === "ok").length;
  console.log(
    `kill: ${rounds} rounds of SIGKILL to ${instances} process(es) on ${target.kind} under load from ${clients} clients, ${ledger.requests} requests; ${ledger.acknowledged.size} deletes acknowledged, lost ${lost}, double ${double}, phantom ${phantom}, in doubt ${ledger.inDoubt.size}; store sound after ${sound} of ${rounds}`,
  );
  return lost + double + phantom === 0 && sound === rounds ? 0 : 1;
}
