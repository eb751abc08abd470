"""
Python zeep (Debian's python3-zeep) downloads a document from our generated documents server:
reads its ?WSDL, calls Download, and prints one JSON line: the Content-Type of the answer zeep
read (an MTOM package, when the server answers so), the document's name, size and sha256.
Usage: zeep_download.py <wsdl-url> <id> <port-name>. Used by test/mtom/python-judges.test.ts.
"""
import hashlib
import json
import sys

import zeep

seen = []
client = zeep.Client(sys.argv[1], port_name=sys.argv[3])
client.transport.session.hooks["response"].append(
    lambda r, *args, **kwargs: seen.append(r.headers.get("Content-Type", ""))
)
doc = client.service.Download(Id=sys.argv[2])
print(
    json.dumps(
        {
            "contentType": seen[-1],
            "name": doc.Info.Name,
            "size": len(doc.Content),
            "sha256": hashlib.sha256(doc.Content).hexdigest(),
        }
    )
)
