// A Message Retrieval Service on the JAX-WS reference implementation (the wsimport stubs of its WSDL,
// published on the JDK's HTTP server over SOAP 1.1 and SOAP 1.2), for our generated client to call:
// the same service written by another toolkit, which writes its XML its own way (prefixes, fault
// codes). Usage: java JaxwsServer <messages.tsv>; prints "listening <port>" once both are up.
// Each line of the file is an account or a message, fields tab-separated, "\N" for null, with
// backslash escapes: "account <email> <password> <userId>" or "message <email> <Id> <DateArrived>
// <Sender> <MessageText> <MessageUrl> <Transcription>". Used by test/interop/jaxws-server.test.ts.
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.*;
import javax.jws.WebService;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.datatype.XMLGregorianCalendar;
import javax.xml.namespace.QName;
import javax.xml.soap.SOAPConstants;
import javax.xml.soap.SOAPFactory;
import javax.xml.soap.SOAPFault;
import javax.xml.ws.BindingType;
import javax.xml.ws.Endpoint;
import javax.xml.ws.soap.SOAPBinding;
import javax.xml.ws.soap.SOAPFaultException;
import peer.ApiSoap;
import peer.ArrayOfMessages;
import peer.Messages;

public class JaxwsServer {
  static final Map<String, String[]> accounts = new HashMap<>();
  static final List<String[]> messages = Collections.synchronizedList(new ArrayList<>());

  static String unescape(String s) {
    if (s.equals("\\N")) return null;
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\' || i + 1 == s.length()) { b.append(c); continue; }
      char n = s.charAt(++i);
      b.append(n == 'n' ? '\n' : n == 't' ? '\t' : n == 'r' ? '\r' : n);
    }
    return b.toString();
  }

  public static class Soap11 implements ApiSoap {
    protected String version() { return SOAPConstants.SOAP_1_1_PROTOCOL; }

    SOAPFaultException clientFault(String message) {
      try {
        SOAPFactory f = SOAPFactory.newInstance(version());
        QName code = version().equals(SOAPConstants.SOAP_1_1_PROTOCOL) ? new QName("http://schemas.xmlsoap.org/soap/envelope/", "Client") : SOAPConstants.SOAP_SENDER_FAULT;
        SOAPFault fault = f.createFault(message, code);
        return new SOAPFaultException(fault);
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    }

    String[] account(String email, String password) {
      String[] a = email == null ? null : accounts.get(email);
      if (a == null || !a[1].equals(password)) throw clientFault("Invalid email or password.");
      return a;
    }

    ArrayOfMessages list(String email, String start, String end) {
      String[] a = account(email, accounts.containsKey(email) ? accounts.get(email)[1] : null);
      ArrayOfMessages out = new ArrayOfMessages();
      try {
        DatatypeFactory f = DatatypeFactory.newInstance();
        synchronized (messages) {
          for (String[] m : messages) {
            if (!m[0].equals(email)) continue;
            if (start != null && (m[2].compareTo(start) < 0 || m[2].compareTo(end + ".9999999") > 0)) continue;
            Messages x = new Messages();
            x.setId(Integer.parseInt(m[1]));
            x.setDateArrived(f.newXMLGregorianCalendar(m[2]));
            x.setUserId(Integer.parseInt(a[2]));
            x.setSender(m[3]);
            x.setMessageText(m[4]);
            x.setMessageUrl(m[5]);
            x.setTranscription(m[6]);
            out.getMessages().add(x);
          }
        }
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
      return out;
    }

    public ArrayOfMessages getMessages(String email, String password) {
      account(email, password);
      return list(email, null, null);
    }

    public ArrayOfMessages getMessagesInDateRange(String email, String password, XMLGregorianCalendar startDate, XMLGregorianCalendar endDate) {
      account(email, password);
      return list(email, startDate.toXMLFormat(), endDate.toXMLFormat());
    }

    public void deleteMessage(String email, String password, int messageId) {
      account(email, password);
      synchronized (messages) {
        if (!messages.removeIf(m -> m[0].equals(email) && Integer.parseInt(m[1]) == messageId)) throw clientFault("No message with id " + messageId + ".");
      }
    }
  }

  @WebService(endpointInterface = "peer.ApiSoap", serviceName = "Api", portName = "ApiSoap", targetNamespace = "http://api.example.com/messages/")
  public static class Soap11Endpoint extends Soap11 {}

  @WebService(endpointInterface = "peer.ApiSoap", serviceName = "Api", portName = "ApiSoap12", targetNamespace = "http://api.example.com/messages/")
  @BindingType(SOAPBinding.SOAP12HTTP_BINDING)
  public static class Soap12Endpoint extends Soap11 {
    @Override protected String version() { return SOAPConstants.SOAP_1_2_PROTOCOL; }
  }

  public static void main(String[] args) throws Exception {
    for (String line : Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8)) {
      if (line.isEmpty()) continue;
      String[] f = line.split("\t", -1);
      String[] v = new String[f.length - 1];
      for (int i = 1; i < f.length; i++) v[i - 1] = unescape(f[i]);
      if (f[0].equals("account")) accounts.put(v[0], v);
      else messages.add(v);
    }
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    Endpoint.create(new Soap11Endpoint()).publish(server.createContext("/api.asmx"));
    Endpoint.create(new Soap12Endpoint()).publish(server.createContext("/api12.asmx"));
    server.start();
    System.out.println("listening " + server.getAddress().getPort());
  }
}
