"""
Python zeep (Debian's python3-zeep) calling a scaffolded server: reads its ?WSDL, then calls each
operation given over one port, printing one JSON line per call (the value zeep decoded, or the
fault). Usage: zeep_calls.py <wsdl-url> <service> <port> <json: [[operation, {arguments}], ...]>.
Used by test/scaffold/project.test.ts.
"""
import json
import sys

import zeep
from zeep.exceptions import Fault
from zeep.helpers import serialize_object

wsdl, service_name, port, calls = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
service = zeep.Client(wsdl).bind(service_name, port)
for operation, arguments in calls:
    try:
        value = serialize_object(getattr(service, operation)(**arguments))
        print(json.dumps({"operation": operation, "value": value}, default=str))
    except Fault as f:
        print(json.dumps({"operation": operation, "fault": f.code, "message": f.message}))
