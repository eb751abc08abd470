"""Parses a SOAP with Attachments request with Python's email package, as an independent judge.

Reads the HTTP body from stdin and its Content-Type from argv[1]; prints JSON: the package's
type and start, then each part's Content-ID, Content-Type, size and SHA-256 (the root's text too).
"""
import email
import email.policy
import hashlib
import json
import sys

content_type = sys.argv[1]
body = sys.stdin.buffer.read()
message = email.message_from_bytes(
    b"Content-Type: " + content_type.encode("latin-1") + b"\r\nMIME-Version: 1.0\r\n\r\n" + body,
    policy=email.policy.HTTP,
)
if not message.is_multipart():
    sys.exit("not a multipart message")
parts = []
for part in message.iter_parts():
    data = part.get_payload(decode=True)
    entry = {
        "id": part["Content-ID"],
        "type": part.get_content_type(),
        "size": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    if len(parts) == 0:
        entry["text"] = data.decode("utf-8")
    parts.append(entry)
print(
    json.dumps(
        {
            "type": message.get_content_type(),
            "rootType": message.get_param("type"),
            "start": message.get_param("start"),
            "defects": len(message.defects),
            "parts": parts,
        }
    )
)
