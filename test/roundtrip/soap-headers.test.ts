/**
 * `soap:header`: the request header elements a binding declares are typed options of the client
 * (`soapHeaders`, per client and per call) and arrive typed in the server's context; the response
 * header elements are set by the implementation (`setResponseSoapHeaders`) and reach the caller
 * (`onSoapHeaders`), faults included; an undeclared header marked mustUnderstand is refused.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { generateFiles, loadWsdl } from "../../src/generate.js";
import { soapBop } from "../support/binding-operations.js";
import { listen } from "../support/loopback.js";
import { tempDir, writeTemp } from "../support/tmp.js";

const RUNTIME = path.resolve("runtime/src/index.ts");

const WSDL = `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:h" targetNamespace="urn:h">
  <types><xs:schema targetNamespace="urn:h" elementFormDefault="qualified">
    <xs:element name="Auth"><xs:complexType><xs:sequence>
      <xs:element name="user" type="xs:string"/><xs:element name="expires" type="xs:dateTime" minOccurs="0"/>
    </xs:sequence></xs:complexType></xs:element>
    <xs:element name="Trace" type="xs:long"/>
    <xs:element name="Receipt" type="xs:string"/>
    <xs:element name="Echo"><xs:complexType><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="EchoResponse"><xs:complexType><xs:sequence><xs:element name="EchoResult" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="Ping"><xs:complexType/></xs:element>
    <xs:element name="PingResponse"><xs:complexType/></xs:element>
  </xs:schema></types>
  <message name="EchoIn"><part name="parameters" element="t:Echo"/></message>
  <message name="EchoOut"><part name="parameters" element="t:EchoResponse"/></message>
  <message name="PingIn"><part name="parameters" element="t:Ping"/></message>
  <message name="PingOut"><part name="parameters" element="t:PingResponse"/></message>
  <message name="Headers"><part name="auth" element="t:Auth"/><part name="trace" element="t:Trace"/></message>
  <message name="ResponseHeaders"><part name="receipt" element="t:Receipt"/></message>
  <portType name="P">
    <operation name="Echo"><input message="t:EchoIn"/><output message="t:EchoOut"/></operation>
    <operation name="Ping"><input message="t:PingIn"/><output message="t:PingOut"/></operation>
  </portType>
  <binding name="B" type="t:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
    <operation name="Echo"><soap:operation soapAction="urn:h#Echo"/>
      <input><soap:body use="literal"/><soap:header message="t:Headers" part="auth" use="literal"/><soap:header message="t:Headers" part="trace" use="literal"/></input>
      <output><soap:body use="literal"/><soap:header message="t:ResponseHeaders" part="receipt" use="literal"/></output></operation>
    <operation name="Ping"><soap:operation soapAction="urn:h#Ping"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
  <binding name="B12" type="t:P"><soap12:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
    <operation name="Echo"><soap12:operation soapAction="urn:h#Echo"/>
      <input><soap12:body use="literal"/><soap12:header message="t:Headers" part="auth" use="literal"/></input>
      <output><soap12:body use="literal"/></output></operation>
    <operation name="Ping"><soap12:operation soapAction="urn:h#Ping"/><input><soap12:body use="literal"/></input><output><soap12:body use="literal"/></output></operation>
  </binding>
  <service name="H">
    <port name="HSoap" binding="t:B"><soap:address location="http://localhost/h"/></port>
    <port name="HSoap12" binding="t:B12"><soap12:address location="http://localhost/h"/></port>
  </service>
</definitions>`;

describe("SOAP headers", async () => {
  const dir = tempDir();
  const src = writeTemp(dir, "h.wsdl", WSDL);

  it("the model keeps each binding's request header elements, and the service one typed bag of them", async () => {
    const { model, diagnostics } = await loadWsdl(src);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const s = model!.services[0]!;
    const [b11, b12] = s.ports.map((p) => p.binding);
    expect(b11!.operations.map((o) => soapBop(o).inputHeaders.map((e) => e.name.local))).toEqual([
      ["Auth", "Trace"],
      [],
    ]);
    expect(b12!.operations.map((o) => soapBop(o).inputHeaders.map((e) => e.name.local))).toEqual([
      ["Auth"],
      [],
    ]);
    expect(b11!.operations.map((o) => soapBop(o).outputHeaders.map((e) => e.name.local))).toEqual([
      ["Receipt"],
      [],
    ]);
    expect(b12!.operations.map((o) => soapBop(o).outputHeaders.map((e) => e.name.local))).toEqual([
      [],
      [],
    ]);
    expect(s.soapHeaders?.fields.map((f) => [f.name.ns, f.name.local, f.minOccurs])).toEqual([
      ["urn:h", "Auth", 0],
      ["urn:h", "Trace", 0],
      ["urn:h", "Receipt", 0],
    ]);
    // Header parts never leak into the body.
    expect(soapBop(b11!.operations[0]).soapInput).toMatchObject({
      kind: "element",
      element: { name: { local: "Echo" } },
    });
  });

  it("a header naming an undeclared message or element is left out with a located warning (an error under strict)", async () => {
    const broken = WSDL.replace(
      '<soap:header message="t:Headers" part="trace" use="literal"/>',
      '<soap:header message="t:Gone" part="x" use="literal"/>',
    )
      .replace('<part name="trace" element="t:Trace"/>', '<part name="trace" element="t:Missing"/>')
      .replace(
        '<soap12:header message="t:Headers" part="auth" use="literal"/>',
        '<soap12:header message="t:Headers" part="trace" use="literal"/>',
      );
    const file = writeTemp(dir, "broken.wsdl", broken);
    const { model, diagnostics } = await loadWsdl(file);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const skipped = diagnostics.filter((d) => d.message.includes("soap:header"));
    expect(skipped.map((d) => [d.code, d.message])).toEqual([
      ["WSDL_UNRESOLVED", expect.stringContaining("message {urn:h}Gone is not declared")],
      ["XSD_UNRESOLVED", expect.stringContaining("element {urn:h}Missing is not declared")],
    ]);
    expect(skipped.every((d) => d.file === file && d.line > 1 && d.severity === "warning")).toBe(
      true,
    );
    expect(
      model!.services[0]!.ports.map((p) =>
        soapBop(p.binding.operations[0]).inputHeaders.map((e) => e.name.local),
      ),
    ).toEqual([["Auth"], []]);
    const strict = await loadWsdl(file, { strict: true });
    expect(
      strict.diagnostics
        .filter((d) => d.severity === "error" && d.message.includes("soap:header"))
        .map((d) => d.code),
    ).toEqual(["WSDL_UNRESOLVED", "XSD_UNRESOLVED"]);
  });

  /** The generated code of the WSDL, written once and imported. */
  let generated:
    Promise<{ files: { path: string; content: string }[]; gen: Record<string, any> }> | undefined;
  const generate = () =>
    (generated ??= (async () => {
      const { files, diagnostics } = await generateFiles(src, { runtimeImport: RUNTIME });
      expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const out = path.join(dir, "gen");
      for (const f of files) {
        mkdirSync(path.dirname(path.join(out, f.path)), { recursive: true });
        writeFileSync(path.join(out, f.path), f.content);
      }
      return { files, gen: await import(path.join(out, "index.ts")) };
    })());

  it("are sent by the client where the binding declares them and arrive typed in the server's context", async () => {
    const { files, gen } = await generate();
    const client = files.find((f) => f.path === "client.ts")!.content;
    expect(client).toMatch(/ClientOptions<\s*HPortName,\s*HSoapHeaders(Input)?\s*>/);
    // The descriptor's type carries the header forms, which type CallOptions and RequestContext.
    expect(files.find((f) => f.path === "descriptors.ts")!.content).toMatch(
      /ServiceDesc<\s*t\.HOperations,\s*t\.HPortName,\s*SoapHeaderForms<t\.HSoapHeaders, t\.HSoapHeadersInput>\s*>/,
    );
    const seen: unknown[] = [];
    const bodies: string[] = [];
    const handler = gen.createHHandler({
      echo: (input: { text: string }, ctx: { soapHeaders: Record<string, unknown> }) => {
        seen.push({
          ...ctx.soapHeaders,
          Auth: ctx.soapHeaders["Auth"] && { ...(ctx.soapHeaders["Auth"] as object) },
        });
        return input.text;
      },
      ping: (_: unknown, ctx: { soapHeaders: Record<string, unknown> }) => {
        seen.push(ctx.soapHeaders);
      },
    });
    const server = await listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => bodies.push(Buffer.concat(chunks).toString()));
      handler(req, res);
    });
    try {
      const c11 = new gen.HClient({
        endpoint: `${server.url}/h`,
        soapHeaders: { Auth: { user: "ann & bob", expires: "2030-01-01T00:00:00.1234567Z" } },
      });
      expect(await c11.echo({ text: "hi" }, { soapHeaders: { Trace: 9007199254740993n } })).toBe(
        "hi",
      );
      expect(bodies[0]).toContain(
        '<soap:Header><Auth xmlns="urn:h"><user>ann &amp; bob</user><expires>2030-01-01T00:00:00.1234567Z</expires></Auth><Trace xmlns="urn:h">9007199254740993</Trace></soap:Header><soap:Body>',
      );
      await c11.ping({});
      expect(bodies[1]).not.toContain("soap:Header");
      const c12 = new gen.HClient({
        endpoint: `${server.url}/h`,
        port: "HSoap12",
        soapHeaders: { Auth: { user: "carl" }, Trace: 1n },
      });
      await c12.echo({ text: "x" });
      expect(bodies[2]).toContain(
        '<soap:Header><Auth xmlns="urn:h"><user>carl</user></Auth></soap:Header>',
      );
      expect(
        seen.map((x) =>
          JSON.parse(JSON.stringify(x, (_k, v) => (typeof v === "bigint" ? `${v}n` : v))),
        ),
      ).toEqual([
        {
          Auth: { user: "ann & bob", expires: "2030-01-01T00:00:00.1234567Z" },
          Trace: "9007199254740993n",
        },
        {},
        // The SOAP 1.2 binding declares only Auth: Trace stays behind.
        { Auth: { user: "carl" } },
      ]);
      // A header value that does not fit its type is refused before anything is sent.
      await expect(c11.echo({ text: "y" }, { soapHeaders: { Trace: "nine" } })).rejects.toThrow(
        /Trace/,
      );
      expect(bodies).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it("response headers set by the implementation reach the caller, with results and with faults", async () => {
    const { gen } = await generate();
    const responses: string[] = [];
    const handler = gen.createHHandler({
      echo: (input: { text: string }, ctx: { setResponseSoapHeaders(h: object): void }) => {
        ctx.setResponseSoapHeaders({
          Receipt: `r-${input.text}`,
          Auth: { user: "not declared for the response" },
        });
        if (input.text === "fail") throw new gen.SoapFault({ code: "Client", message: "No." });
        return input.text;
      },
      ping: (_: unknown, ctx: { setResponseSoapHeaders(h: object): void }) =>
        ctx.setResponseSoapHeaders({ Receipt: "ping declares none" }),
    });
    const server = await listen((req, res) => {
      const end = res.end.bind(res);
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (chunk) responses.push(String(chunk));
        return (end as (...a: unknown[]) => typeof res)(chunk, ...rest);
      }) as typeof res.end;
      handler(req, res);
    });
    try {
      const client = new gen.HClient({ endpoint: `${server.url}/h` });
      const got: unknown[] = [];
      expect(
        await client.echo({ text: "one" }, { onSoapHeaders: (h: unknown) => got.push(h) }),
      ).toBe("one");
      expect(responses[0]).toContain(
        '<soap:Header><Receipt xmlns="urn:h">r-one</Receipt></soap:Header><soap:Body>',
      );
      await expect(
        client.echo({ text: "fail" }, { onSoapHeaders: (h: unknown) => got.push(h) }),
      ).rejects.toThrow("No.");
      expect(responses[1]).toContain(
        '<soap:Header><Receipt xmlns="urn:h">r-fail</Receipt></soap:Header><soap:Body><soap:Fault>',
      );
      await client.ping({}, { onSoapHeaders: (h: unknown) => got.push(h) });
      expect(responses[2]).not.toContain("soap:Header");
      expect(got).toEqual([{ Receipt: "r-one" }, { Receipt: "r-fail" }, {}]);
    } finally {
      await server.close();
    }
  });

  it("an undeclared header marked mustUnderstand for this receiver gets a MustUnderstand fault; others are ignored", async () => {
    const { gen } = await generate();
    let calls = 0;
    const server = await listen(
      gen.createHHandler({
        echo: (i: { text: string }) => (calls++, i.text),
        ping: () => undefined,
      }),
    );
    const post = async (header: string, version: "1.1" | "1.2" = "1.1") => {
      const env =
        version === "1.1"
          ? "http://schemas.xmlsoap.org/soap/envelope/"
          : "http://www.w3.org/2003/05/soap-envelope";
      const res = await fetch(`${server.url}/h`, {
        method: "POST",
        headers:
          version === "1.1"
            ? { "Content-Type": "text/xml; charset=utf-8", SOAPAction: '"urn:h#Echo"' }
            : { "Content-Type": 'application/soap+xml; charset=utf-8; action="urn:h#Echo"' },
        body: `<e:Envelope xmlns:e="${env}"><e:Header>${header}</e:Header><e:Body><Echo xmlns="urn:h"><text>t</text></Echo></e:Body></e:Envelope>`,
      });
      return { status: res.status, text: await res.text() };
    };
    try {
      const refused = await post(
        '<x:Session xmlns:x="urn:other" e:mustUnderstand="1">s</x:Session>',
      );
      expect(refused.status).toBe(500);
      expect(refused.text).toContain(
        "<faultcode>soap:MustUnderstand</faultcode><faultstring>SOAP header {urn:other}Session was not understood.</faultstring>",
      );
      const refused12 = await post(
        '<x:Session xmlns:x="urn:other" e:mustUnderstand="true">s</x:Session>',
        "1.2",
      );
      expect(refused12.status).toBe(500);
      expect(refused12.text).toContain("<soap:Value>soap:MustUnderstand</soap:Value>");
      expect(calls).toBe(0);
      for (const ok of [
        '<x:Session xmlns:x="urn:other" e:mustUnderstand="0">s</x:Session>',
        '<x:Session xmlns:x="urn:other" e:mustUnderstand="1" e:actor="urn:some-intermediary">s</x:Session>',
        '<Trace xmlns="urn:h" e:mustUnderstand="1">5</Trace>',
      ]) {
        const r = await post(ok);
        expect({ ok, status: r.status }).toEqual({ ok, status: 200 });
      }
      expect(calls).toBe(3);
    } finally {
      await server.close();
    }
  });
});
