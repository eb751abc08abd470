"""
Python zeep or suds (Debian's python3-zeep, python3-suds) as a client of the rpc/encoded echo service
of fixtures/encoded-arrays: reads its ?WSDL, sends SOAP-encoded arrays the way each builds them, and
prints one JSON line: the echoed result as the peer reads it. Usage: encoded_client.py zeep|suds
<wsdl-url>. Used by test/interop/encoded-peers.test.ts.
"""
import json
import os
import sys

ENC = "http://schemas.xmlsoap.org/soap/encoding/"
HERE = os.path.dirname(os.path.abspath(__file__))
ITEMS = [(1, "one & <two>"), (2, None)]
NAMES = ["a", "b & c"]
NUMBERS = [7, -8, 9]
BASKET_ITEMS = [(3, "three")]


def with_zeep(url):
    import zeep
    from zeep.helpers import serialize_object
    from zeep.transports import Transport

    class Local(Transport):
        # zeep fetches SOAP encoding's schema from its namespace URL, which a test may not reach.
        def load(self, location):
            if location.rstrip("/") == ENC.rstrip("/"):
                with open(os.path.join(HERE, "soap-encoding.xsd"), "rb") as f:
                    return f.read()
            return super().load(location)

    client = zeep.Client(url, transport=Local())
    array = lambda name, values: client.get_type("{urn:enc}" + name)(values)
    item = client.get_type("{urn:enc}Item")
    items = lambda pairs: array("ItemArray", [item(id=i, name=n) for i, n in pairs])
    result = client.service.echo(
        items=items(ITEMS),
        names=array("StringArray", NAMES),
        numbers=array("IntArray", NUMBERS),
        basket={"owner": "me", "items": items(BASKET_ITEMS)},
    )
    return serialize_object(result, dict)


def with_suds(url):
    from suds.client import Client

    client = Client(url, cache=None)
    create = client.factory.create

    def items(pairs):
        out = []
        for i, n in pairs:
            it = create("{urn:enc}Item")
            it.id, it.name = i, n
            out.append(it)
        return out

    numbers = create("{urn:enc}IntArray")
    numbers.number = NUMBERS
    basket = create("{urn:enc}Basket")
    basket.owner, basket.items = "me", items(BASKET_ITEMS)
    result = client.service.echo(items(ITEMS), NAMES, numbers, basket)
    return plain(result)


def plain(value):
    """A suds object as JSON values: its fields, lists as lists."""
    if isinstance(value, list):
        return [plain(v) for v in value]
    if hasattr(value, "__keylist__"):
        return {k: plain(getattr(value, k)) for k in value.__keylist__}
    return value


def main():
    peer, url = sys.argv[1:]
    try:
        value = (with_zeep if peer == "zeep" else with_suds)(url)
    except Exception as e:  # reported as a value, so the test shows what the peer said
        value = {"error": f"{type(e).__name__}: {e}"}
    print(json.dumps(value, ensure_ascii=False, default=str), flush=True)


main()
