"""
zeep with python3-xmlsec (Debian's python3-zeep and python3-xmlsec) as the WS-Security peer of
test/wss/peer-signatures.test.ts. Usage:
  zeep_wss.py call <wsdl-url> <port> <key> <cert> <server-cert>
    calls GetMessages signed by zeep.wsse.signature.BinarySignature (RSA-SHA256, SHA-256, over the
    Body and a Timestamp), verifies the signed answer against <server-cert> with xmlsec, and prints
    {"value": ...} or {"error": ...} as one JSON line;
  zeep_wss.py sign <key> <cert>
    reads a SOAP envelope on stdin and writes it signed the same way;
  zeep_wss.py sign-ref <key> <cert> <issuer-serial|ski|x509data>
    the same, the certificate not sent but named in the SecurityTokenReference by the
    X509IssuerSerial or (as a wsse:KeyIdentifier) the X509SKI that xmlsec wrote, or sent the way
    zeep.wsse.signature.Signature sends it (both in a ds:X509Data).
"""
import datetime
import json
import sys

import xmlsec
import zeep
from lxml import etree
from zeep.helpers import serialize_object
from lxml.etree import QName
from zeep import ns
from zeep.utils import detect_soap_env
from zeep.wsse.signature import (
    BinarySignature,
    Signature,
    _make_sign_key,
    _sign_node,
    _verify_envelope_with_key,
)
from zeep.wsse.utils import WSU, get_security_header

SKI = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509SubjectKeyIdentifier"
BASE64 = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary"


def add_timestamp(envelope):
    # BinarySignature signs a Timestamp only when the Security header already holds one.
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    later = now + datetime.timedelta(minutes=5)
    get_security_header(envelope).append(
        WSU.Timestamp(WSU.Created(now.isoformat()), WSU.Expires(later.isoformat()))
    )


class SignedCalls:
    """Signs requests as BinarySignature does, with a Timestamp, and verifies answers with the
    server's certificate (BinarySignature alone would verify them with the client's own)."""

    def __init__(self, key, cert, server_cert):
        self.signature = BinarySignature(
            key, cert, signature_method=xmlsec.Transform.RSA_SHA256, digest_method=xmlsec.Transform.SHA256
        )
        with open(server_cert, "rb") as f:
            self.server_key = xmlsec.Key.from_memory(f.read(), xmlsec.KeyFormat.CERT_PEM, None)

    def apply(self, envelope, headers):
        add_timestamp(envelope)
        return self.signature.apply(envelope, headers)

    def verify(self, envelope):
        _verify_envelope_with_key(envelope, self.server_key)
        return envelope


def call(url, port, key, cert, server_cert):
    client = zeep.Client(url, wsse=SignedCalls(key, cert, server_cert))
    service = client.bind("Api", port)
    try:
        value = serialize_object(service.GetMessages(email="alice@example.com", password="alice-pass"))
        print(json.dumps({"value": value}, default=str))
    except Exception as e:  # the verdict the test reads: a failed verification or a fault
        print(json.dumps({"error": f"{type(e).__name__}: {e}"}))


def sign(key, cert):
    envelope = etree.fromstring(sys.stdin.buffer.read())
    add_timestamp(envelope)
    signature = BinarySignature(
        key, cert, signature_method=xmlsec.Transform.RSA_SHA256, digest_method=xmlsec.Transform.SHA256
    )
    signature.apply(envelope, {})
    sys.stdout.buffer.write(etree.tostring(envelope, xml_declaration=True, encoding="utf-8"))


def signed_by_reference(envelope, key, form):
    """Signs as zeep does, the X509Data template holding only what `form` names, filled by xmlsec."""
    signature = xmlsec.template.create(envelope, xmlsec.Transform.EXCL_C14N, xmlsec.Transform.RSA_SHA256)
    key_info = xmlsec.template.ensure_key_info(signature)
    x509_data = xmlsec.template.add_x509_data(key_info)
    if form == "ski":
        xmlsec.template.x509_data_add_ski(x509_data)
    else:
        xmlsec.template.x509_data_add_issuer_serial(x509_data)
    security = get_security_header(envelope)
    security.insert(0, signature)
    ctx = xmlsec.SignatureContext()
    ctx.key = key
    _sign_node(ctx, signature, envelope.find(QName(detect_soap_env(envelope), "Body")), xmlsec.Transform.SHA256)
    _sign_node(ctx, signature, security.find(QName(ns.WSU, "Timestamp")), xmlsec.Transform.SHA256)
    ctx.sign(signature)
    reference = etree.SubElement(key_info, QName(ns.WSSE, "SecurityTokenReference"))
    if form == "ski":
        identifier = etree.SubElement(reference, QName(ns.WSSE, "KeyIdentifier"), {"ValueType": SKI, "EncodingType": BASE64})
        identifier.text = x509_data.find(QName(ns.DS, "X509SKI")).text
        key_info.remove(x509_data)
    else:
        reference.append(x509_data)


def sign_ref(key, cert, form):
    envelope = etree.fromstring(sys.stdin.buffer.read())
    add_timestamp(envelope)
    if form == "x509data":
        Signature(key, cert, signature_method=xmlsec.Transform.RSA_SHA256,
                  digest_method=xmlsec.Transform.SHA256).apply(envelope, {})
    else:
        with open(key, "rb") as k, open(cert, "rb") as c:
            signed_by_reference(envelope, _make_sign_key(k.read(), c.read(), None), form)
    sys.stdout.buffer.write(etree.tostring(envelope, xml_declaration=True, encoding="utf-8"))


if __name__ == "__main__":
    mode, *args = sys.argv[1:]
    {"call": call, "sign": sign, "sign-ref": sign_ref}[mode](*args)
