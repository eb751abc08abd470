/** Checking a password against a store directly, as the service does before it caches. */
import { passwordMatches } from "../../examples/message-service/passwords.js";
import type { MessageStore } from "../../examples/message-service/store.js";

/** The user id for a correct e-mail and password, else undefined: the store's check, uncached. */
export async function login(
  store: Pick<MessageStore, "findAccount">,
  email: string,
  password: string,
): Promise<number | undefined> {
  const account = await store.findAccount(email);
  return (await passwordMatches(account, password)) ? account?.userId : undefined;
}
