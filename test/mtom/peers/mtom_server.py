"""
A SOAP peer of Python's standard library for the MTOM judges (test/mtom/python-judges.test.ts),
on loopback port 0 (printed first, as `port N`). Each MTOM request is parsed with the `email`
package, every xop:Include of its root part resolved against the part its cid: names, and one
JSON line printed per request: what each Include held (element, size, sha256). Upload is answered
with a plain envelope; Download, its Id `size:N`, with an MTOM package built here byte by byte,
its content N bytes of pattern(N), its part's Content-ID bare (no <>) and its cid: URL-encoded.
Usage: mtom_server.py.
"""
import email.parser
import email.policy
import hashlib
import http.server
import json
import sys
import urllib.parse
import xml.etree.ElementTree as ET

XOP = "{http://www.w3.org/2004/08/xop/include}Include"
DOCS = "urn:wsdl-tsgen:documents"


def pattern(n):
    """Bytes of every value, CRLFs and dashes among them, that no text encoding keeps."""
    return bytes((i * 7 + (i >> 8)) & 0xFF for i in range(n))


def parse_package(content_type, body):
    """The root part's XML and the parts by bare Content-ID, read by the email package."""
    head = ("Content-Type: %s\r\nMIME-Version: 1.0\r\n\r\n" % content_type).encode("latin-1")
    msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    if not msg.is_multipart():
        raise ValueError("not a multipart message")
    parts = {}
    for part in msg.iter_parts():
        cid = (part["Content-ID"] or "").strip().strip("<>")
        parts[cid] = part
    start = (msg.get_param("start") or "").strip("<>")
    root = parts.pop(start)
    return root.get_payload(decode=True), parts


def includes(root_xml, parts):
    """Each xop:Include of the envelope: its element, and the size and digest of its part."""
    doc = ET.fromstring(root_xml)
    found = []
    for parent in doc.iter():
        for child in parent:
            if child.tag != XOP:
                continue
            cid = urllib.parse.unquote(child.get("href")[4:])
            data = parts[cid].get_payload(decode=True)
            found.append(
                {
                    "element": parent.tag.split("}")[1],
                    "size": len(data),
                    "sha256": hashlib.sha256(data).hexdigest(),
                }
            )
    return doc, found


def envelope(ns, body):
    return (
        '<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="%s"><s:Body>%s</s:Body></s:Envelope>'
        % (ns, body)
    ).encode("utf-8")


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        ct = self.headers["Content-Type"]
        soap12 = "application/soap+xml" in ct
        ns = "http://www.w3.org/2003/05/soap-envelope" if soap12 else "http://schemas.xmlsoap.org/soap/envelope/"
        if ct.startswith("multipart/related"):
            root_xml, parts = parse_package(ct, body)
        else:
            root_xml, parts = body, {}
        doc, found = includes(root_xml, parts)
        print(json.dumps({"multipart": ct.startswith("multipart/related"), "includes": found}), flush=True)
        op = doc.find(".//{%s}Upload" % DOCS)
        if op is not None:
            return self.answer(
                "text/xml" if not soap12 else "application/soap+xml",
                envelope(
                    ns,
                    '<UploadResponse xmlns="%s"><UploadResult><Id>p1</Id><Name>%s</Name>'
                    "<MediaType>m</MediaType><Size>%d</Size><Created>2026-01-01T00:00:00Z</Created>"
                    "</UploadResult></UploadResponse>" % (DOCS, op.find("{%s}Name" % DOCS).text, sum(f["size"] for f in found)),
                ),
            )
        size = int(doc.find(".//{%s}Id" % DOCS).text.split(":")[1])
        self.download(ns, soap12, size)

    def download(self, ns, soap12, size):
        root = envelope(
            ns,
            '<DownloadResponse xmlns="%s"><DownloadResult><Info><Id>size:%d</Id><Name>p</Name>'
            "<MediaType>m</MediaType><Size>%d</Size><Created>2026-01-01T00:00:00Z</Created></Info>"
            '<Content><inc:Include xmlns:inc="http://www.w3.org/2004/08/xop/include" href="cid:content%%40python"/></Content>'
            "</DownloadResult></DownloadResponse>" % (DOCS, size, size),
        )
        soap_type = "application/soap+xml" if soap12 else "text/xml"
        boundary = "python-boundary-0123"
        package = (
            b"preamble, ignored\r\n--" + boundary.encode() + b"\r\n"
            b'Content-Type: application/xop+xml; charset=utf-8; type="' + soap_type.encode() + b'"\r\n'
            b"Content-Transfer-Encoding: binary\r\nContent-ID: <root@python>\r\n\r\n" + root +
            b"\r\n--" + boundary.encode() + b"\r\n"
            b"Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\n"
            b"Content-ID: content@python\r\n\r\n" + pattern(size) +
            b"\r\n--" + boundary.encode() + b"--\r\n"
        )
        self.answer(
            'multipart/related; type="application/xop+xml"; boundary="%s"; start="<root@python>"; start-info="%s"'
            % (boundary, soap_type),
            package,
        )

    def answer(self, content_type, body):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("port %d" % server.server_address[1], flush=True)
server.serve_forever()
