"""
zeep with python3-xmlsec (Debian's python3-zeep and python3-xmlsec) as the WS-Security peer of
test/wss/peer-signatures.test.ts. Usage:
  zeep_wss.py call <wsdl-url> <port> <key> <cert> <server-cert>
    calls GetMessages signed by zeep.wsse.signature.BinarySignature (RSA-SHA256, SHA-256, over the
    Body and a Timestamp), verifies the signed answer against <server-cert> with xmlsec, and prints
    {"value": ...} or {"error": ...} as one JSON line;
  zeep_wss.py sign <key> <cert>
    reads a SOAP envelope on stdin and writes it signed the same way.
"""
import datetime
import json
import sys

import xmlsec
import zeep
from lxml import etree
from zeep.helpers import serialize_object
from zeep.wsse.signature import BinarySignature, _verify_envelope_with_key
from zeep.wsse.utils import WSU, get_security_header


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


if __name__ == "__main__":
    mode, *args = sys.argv[1:]
    call(*args) if mode == "call" else sign(*args)
