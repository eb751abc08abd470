"""
Python zeep (Debian's python3-zeep) as a client of the generated server of fixtures/choices: reads
its ?WSDL, stores a repeated choice of Message A, CalendarItem B, Message C and a change log (a
repeated sequence holding a choice) the way zeep builds them (a `_value_1` list of one-key dicts),
and prints one JSON line: the element names of what the server answered, in the order zeep read
them. Usage: choices_client.py <wsdl-url>. Used by test/interop/choices-zeep.test.ts.
"""
import datetime
import json
import sys

import zeep
from zeep.helpers import serialize_object


def names(value):
    """The element names of a `_value_1` list, in order (a dict per item, or per occurrence)."""
    out = []
    for item in value["_value_1"] or []:
        for key, v in item.items():
            if v is not None:
                out.append([key, v.get("Subject") if isinstance(v, dict) else v])
    return out


client = zeep.Client(sys.argv[1])
start = datetime.datetime(2024, 3, 10, 12, 0, tzinfo=datetime.timezone.utc)
result = client.service.StoreItems(
    Items={
        "_value_1": [
            {"Message": {"Subject": "A"}},
            {"CalendarItem": {"Subject": "B", "Start": start}},
            {"Message": {"Subject": "C"}},
        ]
    },
    Changes={
        "_value_1": [
            {"ChangeKey": "k1", "Deleted": {"Id": "7"}},
            {"ChangeKey": "k2", "Created": {"Subject": "D"}},
        ]
    },
)
plain = serialize_object(result, dict)
print(json.dumps({"items": names(plain["Items"]), "changes": names(plain["Changes"])}))
