// The JAX-WS reference implementation (Debian's jaxws and libjaxws-java; stubs made by wsimport
// from the service's ?WSDL) as a client of the Message Retrieval Service, over its SOAP 1.1 and 1.2
// ports (JAX-WS has no HTTP GET/POST bindings). Usage: java JaxwsClient <endpoint> <port> <step>...,
// steps as in zeep_client.py; prints one JSON line per step. Used by test/interop/peers.test.ts.
import java.net.URL;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.ws.soap.SOAPFaultException;
import peer.Api;
import peer.ApiSoap;
import peer.ArrayOfMessages;
import peer.Messages;

public class JaxwsClient {
  static final String EMAIL = "alice@example.com";
  static final String PASSWORD = "alice-pass";

  static String q(String s) {
    if (s == null) return "null";
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  static String list(ArrayOfMessages all) {
    if (all == null) return "null";
    StringBuilder out = new StringBuilder("[");
    for (Messages m : all.getMessages()) {
      if (out.length() > 1) out.append(',');
      out.append("{\"Id\":").append(m.getId())
        .append(",\"DateArrived\":").append(q(m.getDateArrived().toXMLFormat()))
        .append(",\"UserId\":").append(m.getUserId())
        .append(",\"Sender\":").append(q(m.getSender()))
        .append(",\"MessageText\":").append(q(m.getMessageText()))
        .append(",\"MessageUrl\":").append(q(m.getMessageUrl()))
        .append(",\"Transcription\":").append(q(m.getTranscription())).append('}');
    }
    return out.append(']').toString();
  }

  static String run(ApiSoap p, String step) throws Exception {
    try {
      if (step.equals("list")) return list(p.getMessages(EMAIL, PASSWORD));
      if (step.equals("wrong")) return list(p.getMessages(EMAIL, "wrong"));
      if (step.startsWith("range:")) {
        String[] parts = step.split(":", 3);
        DatatypeFactory f = DatatypeFactory.newInstance();
        return list(p.getMessagesInDateRange(EMAIL, PASSWORD,
          f.newXMLGregorianCalendar(parts[1].replace('_', ':')), f.newXMLGregorianCalendar(parts[2].replace('_', ':'))));
      }
      if (step.startsWith("delete:")) {
        p.deleteMessage(EMAIL, PASSWORD, Integer.parseInt(step.substring(7)));
        return "{\"deleted\":null}";
      }
    } catch (SOAPFaultException e) {
      return "{\"fault\":" + q(e.getFault().getFaultCodeAsQName().getLocalPart()) + ",\"message\":" + q(e.getFault().getFaultString()) + "}";
    }
    throw new IllegalArgumentException("unknown step " + step);
  }

  public static void main(String[] args) throws Exception {
    Api service = new Api(new URL(args[0] + "?WSDL"));
    ApiSoap port = args[1].equals("ApiSoap12") ? service.getApiSoap12() : service.getApiSoap();
    for (int i = 2; i < args.length; i++) System.out.println("{\"step\":" + q(args[i]) + ",\"value\":" + run(port, args[i]) + "}");
  }
}
