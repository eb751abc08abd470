"""
Python zeep (Debian's python3-zeep) as a client of the Message Retrieval Service: reads the service's
?WSDL, then runs the steps given on the command line over one port, printing one JSON line per step.
Usage: zeep_client.py <wsdl-url> <port> <step>...; a step is list, range:<start>:<end>, delete:<id>,
wrong (a wrong password). Used by test/interop/peers.test.ts.
"""
import json
import sys

import zeep
from zeep.exceptions import Fault
from zeep.helpers import serialize_object

ALICE = {"email": "alice@example.com", "password": "alice-pass"}


def messages(result):
    # SOAP results unwrap to the list of Messages; the HTTP bindings give the ArrayOfMessages object.
    if result is not None and not isinstance(result, list):
        result = result["Messages"]
    if result is None:
        return None
    out = []
    for m in serialize_object(result):
        m = dict(m)
        m["DateArrived"] = m["DateArrived"].isoformat()
        out.append(m)
    return out


def run(service, step):
    try:
        if step == "list":
            return messages(service.GetMessages(**ALICE))
        if step.startswith("range:"):
            _, start, end = step.split(":", 2)
            start, end = start.replace("_", ":"), end.replace("_", ":")
            return messages(service.GetMessagesInDateRange(**ALICE, startDate=start, endDate=end))
        if step.startswith("delete:"):
            return {"deleted": service.DeleteMessage(**ALICE, MessageId=int(step.split(":")[1]))}
        if step == "wrong":
            return messages(service.GetMessages(email=ALICE["email"], password="wrong"))
    except Fault as f:
        # zeep raises a Fault for an HTTP binding's error status too, its message the body's bytes.
        message = f.message.decode("utf-8") if isinstance(f.message, bytes) else f.message
        return {"fault": f.code, "message": message}
    except Exception as e:  # an HTTP binding's error status, or a peer failure the test reports
        response = getattr(e, "response", None)
        if response is not None:
            return {"status": response.status_code, "body": response.text}
        return {"error": f"{type(e).__name__}: {e}"}
    raise SystemExit(f"unknown step {step}")


def main():
    url, port, *steps = sys.argv[1:]
    client = zeep.Client(url)
    service = client.bind("Api", port)
    for step in steps:
        print(json.dumps({"step": step, "value": run(service, step)}, ensure_ascii=False, default=str), flush=True)


main()
