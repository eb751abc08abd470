/** What the streamed-result tests answer with: the account, the namespaces and one item's XML. */
export const ALICE = { email: "alice@example.com", password: "alice-pass" };
export const NS = "http://api.example.com/messages/";
export const SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
export const SOAP12 = "http://www.w3.org/2003/05/soap-envelope";

/** One Messages element as a server writes it. */
export const item = (i: number, sender = `caller ${i}`) =>
  `<Messages><DateArrived>2024-01-15T08:30:00</DateArrived><UserId>1</UserId>` +
  `<Sender>${sender}</Sender><Id>${i}</Id></Messages>`;
