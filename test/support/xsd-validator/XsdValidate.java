// An independent check of the XML our runtime writes: the JDK's own XML Schema validator (Xerces),
// given the schemas of a WSDL, validates the messages the round trip sent and answered.
//
// Usage: java XsdValidate.java <wsdl-file>
//   The schemas are the xs:schema elements of the WSDL and of the WSDLs it imports (each with the
//   namespace declarations in scope where it stands, so QNames in attribute values resolve), and
//   what they import or include. Messages come on standard input, each as a line
//   "@@ <bytes> <mode> <label>" followed by that many bytes of XML. Modes:
//     soap-document  the element children of the SOAP Header and Body, and of a Fault's detail
//     soap-rpc       the same but the Body's child (an rpc wrapper, which no schema declares)
//     document       the document element (an HTTP GET/POST response)
//   One line answers each message: "<label>\t<n> valid", or "<label>\tINVALID" and a tab before
//   each of its first fifty errors (line breaks and tabs in them escaped).
//   A schema set that does not compile answers "SCHEMA\t<errors>" and exits 3.
import java.io.*;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.*;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.w3c.dom.*;
import org.w3c.dom.ls.LSInput;
import org.w3c.dom.ls.LSResourceResolver;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXParseException;

public class XsdValidate {
  static final String WSDL = "http://schemas.xmlsoap.org/wsdl/";
  static final String XSD = XMLConstants.W3C_XML_SCHEMA_NS_URI;
  static final Set<String> ENVELOPES = Set.of("http://schemas.xmlsoap.org/soap/envelope/", "http://www.w3.org/2003/05/soap-envelope");

  static boolean isEnvelope(Element e) {
    return e.getNamespaceURI() != null && ENVELOPES.contains(e.getNamespaceURI());
  }

  static DocumentBuilder builder() throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder();
  }

  /** A schema element standing alone: a copy with every namespace declaration in scope where it stood. */
  static Document standalone(Element schema, DocumentBuilder b) {
    Document d = b.newDocument();
    Element copy = (Element) d.importNode(schema, true);
    for (Node n = schema.getParentNode(); n instanceof Element; n = n.getParentNode()) {
      NamedNodeMap attrs = n.getAttributes();
      for (int i = 0; i < attrs.getLength(); i++) {
        Attr a = (Attr) attrs.item(i);
        if (!XMLConstants.XMLNS_ATTRIBUTE_NS_URI.equals(a.getNamespaceURI())) continue;
        if (!copy.hasAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI, a.getLocalName())) copy.setAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI, a.getName(), a.getValue());
      }
    }
    d.appendChild(copy);
    return d;
  }

  static void collect(URI wsdl, DocumentBuilder b, Set<URI> seen, List<DOMSource> out) throws Exception {
    if (!seen.add(wsdl)) return;
    Document doc = b.parse(wsdl.toString());
    for (Element imp : children(doc.getDocumentElement(), WSDL, "import")) {
      String loc = imp.getAttribute("location");
      if (!loc.isEmpty() && !loc.endsWith(".xsd")) collect(wsdl.resolve(loc), b, seen, out);
    }
    for (Element types : children(doc.getDocumentElement(), WSDL, "types")) {
      for (Element schema : children(types, XSD, "schema")) out.add(new DOMSource(standalone(schema, b), wsdl.toString()));
    }
  }

  static List<Element> children(Element parent, String ns, String local) {
    List<Element> out = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element && (ns == null || ns.equals(n.getNamespaceURI())) && (local == null || local.equals(n.getLocalName()))) out.add((Element) n);
    }
    return out;
  }

  static class Errors implements ErrorHandler {
    final List<String> list = new ArrayList<>();
    public void warning(SAXParseException e) {}
    public void error(SAXParseException e) { add(e); }
    public void fatalError(SAXParseException e) { add(e); }
    void add(SAXParseException e) {
      String where = e.getSystemId() == null ? "" : e.getSystemId().replaceFirst("^.*/", "") + ":" + e.getLineNumber() + ": ";
      // One line per message: the values quoted in the text may hold line breaks and tabs.
      if (list.size() < 50) list.add((where + e.getMessage()).replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t"));
    }
  }

  /** An inline schema as an input, for an xs:import that names its namespace but no location. */
  static class Inline implements LSInput {
    final String text, systemId;
    Inline(String text, String systemId) { this.text = text; this.systemId = systemId; }
    public Reader getCharacterStream() { return new StringReader(text); }
    public void setCharacterStream(Reader r) {}
    public InputStream getByteStream() { return null; }
    public void setByteStream(InputStream s) {}
    public String getStringData() { return text; }
    public void setStringData(String s) {}
    public String getSystemId() { return systemId; }
    public void setSystemId(String s) {}
    public String getPublicId() { return null; }
    public void setPublicId(String s) {}
    public String getBaseURI() { return systemId; }
    public void setBaseURI(String s) {}
    public String getEncoding() { return null; }
    public void setEncoding(String s) {}
    public boolean getCertifiedText() { return false; }
    public void setCertifiedText(boolean b) {}
  }

  static String serialize(Document d) throws Exception {
    javax.xml.transform.Transformer t = javax.xml.transform.TransformerFactory.newInstance().newTransformer();
    StringWriter w = new StringWriter();
    t.transform(new DOMSource(d), new javax.xml.transform.stream.StreamResult(w));
    return w.toString();
  }

  public static void main(String[] args) throws Exception {
    DocumentBuilder b = builder();
    List<DOMSource> schemas = new ArrayList<>();
    collect(new File(args[0]).getAbsoluteFile().toURI(), b, new HashSet<>(), schemas);
    // One schema document that imports (or, without a namespace, includes) every inline schema, each
    // served by the resolver under a name of its own: given as separate sources, Xerces keeps only the
    // first schema of a namespace. An import that names a namespace but no location gets the first
    // inline schema of that namespace.
    List<Inline> inline = new ArrayList<>();
    Map<String, Inline> byNamespace = new HashMap<>();
    StringBuilder wrapper = new StringBuilder("<xs:schema xmlns:xs=\"" + XSD + "\">");
    for (DOMSource s : schemas) {
      String tns = ((Document) s.getNode()).getDocumentElement().getAttribute("targetNamespace");
      Inline in = new Inline(serialize((Document) s.getNode()), s.getSystemId() + "#schema" + inline.size());
      String location = "urn:inline:" + inline.size();
      inline.add(in);
      byNamespace.putIfAbsent(tns, in);
      if (tns.isEmpty()) wrapper.append("<xs:include schemaLocation=\"").append(location).append("\"/>");
      else wrapper.append("<xs:import namespace=\"").append(tns.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;")).append("\" schemaLocation=\"").append(location).append("\"/>");
    }
    wrapper.append("</xs:schema>");
    SchemaFactory sf = SchemaFactory.newInstance(XSD);
    sf.setFeature("http://apache.org/xml/features/honour-all-schemaLocations", true);
    sf.setResourceResolver(new LSResourceResolver() {
      public LSInput resolveResource(String type, String ns, String publicId, String systemId, String base) {
        if (systemId != null && systemId.startsWith("urn:inline:")) return inline.get(Integer.parseInt(systemId.substring(11)));
        return systemId == null && ns != null ? byNamespace.get(ns) : null;
      }
    });
    Errors schemaErrors = new Errors();
    sf.setErrorHandler(schemaErrors);
    Schema schema = null;
    try {
      schema = sf.newSchema(new javax.xml.transform.stream.StreamSource(new StringReader(wrapper.toString()), args[0]));
    } catch (SAXParseException e) {
      // reported through the handler
    }
    if (schema == null || !schemaErrors.list.isEmpty()) {
      System.out.println("SCHEMA\t" + String.join("\t", schemaErrors.list));
      System.exit(3);
    }
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
    BufferedInputStream in = new BufferedInputStream(System.in);
    String head;
    while ((head = line(in)) != null) {
      if (head.isEmpty()) continue;
      String[] h = head.split(" ", 4);
      byte[] bytes = in.readNBytes(Integer.parseInt(h[1]));
      String mode = h[2], label = h[3];
      Errors errors = new Errors();
      int n = 0;
      try {
        Document doc = b.parse(new InputSource(new ByteArrayInputStream(bytes)));
        List<Element> targets = new ArrayList<>();
        Element root = doc.getDocumentElement();
        if (mode.equals("document")) targets.add(root);
        else {
          for (Element part : children(root, null, null)) {
            if (!isEnvelope(part)) continue;
            if (part.getLocalName().equals("Header")) targets.addAll(children(part, null, null));
            if (!part.getLocalName().equals("Body")) continue;
            for (Element c : children(part, null, null)) {
              if (isEnvelope(c) && c.getLocalName().equals("Fault")) {
                for (Element d : children(c, null, null)) {
                  // SOAP 1.1 detail, SOAP 1.2 Detail: their children are the declared fault elements.
                  if (d.getLocalName().equalsIgnoreCase("detail")) targets.addAll(children(d, null, null));
                }
              } else if (mode.equals("soap-document")) targets.add(c);
            }
          }
        }
        Validator v = schema.newValidator();
        v.setErrorHandler(errors);
        for (Element t : targets) {
          v.validate(new DOMSource(t));
          n++;
        }
      } catch (SAXParseException e) {
        errors.add(e);
      }
      out.println(errors.list.isEmpty() ? label + "\t" + n + " valid" : label + "\tINVALID\t" + String.join("\t", errors.list));
    }
  }

  static String line(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != -1 && c != '\n') b.write(c);
    return c == -1 && b.size() == 0 ? null : b.toString(StandardCharsets.UTF_8);
  }
}
