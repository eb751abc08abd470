// Mono's .NET Framework web service client (System.Web.Services, proxies made by Mono's wsdl.exe
// from the service's ?WSDL, one per protocol: SOAP, SOAP12, HttpGet, HttpPost) as a client of the
// Message Retrieval Service. Usage: mono client.exe <endpoint> <port> <step>..., steps as in
// zeep_client.py; prints one JSON line per step. Used by test/interop/peers.test.ts.
using System;
using System.IO;
using System.Net;
using System.Runtime.InteropServices;
using System.Text;
using System.Web.Services.Protocols;

static class MonoClient {
  static string Q(string s) {
    if (s == null) return "null";
    var b = new StringBuilder("\"");
    foreach (var c in s) {
      if (c == '"' || c == '\\') b.Append('\\').Append(c);
      else if (c < 0x20) b.AppendFormat("\\u{0:x4}", (int)c);
      else b.Append(c);
    }
    return b.Append('"').ToString();
  }

  static string Message(DateTime d, int userId, string sender, string text, string url, string transcription, int id) {
    return "{\"Id\":" + id + ",\"DateArrived\":" + Q(d.ToString("o")) + ",\"UserId\":" + userId
      + ",\"Sender\":" + Q(sender) + ",\"MessageText\":" + Q(text) + ",\"MessageUrl\":" + Q(url) + ",\"Transcription\":" + Q(transcription) + "}";
  }

  static string List<T>(T[] list, Func<T, string> one) {
    if (list == null) return "null";
    var parts = new string[list.Length];
    for (int i = 0; i < list.Length; i++) parts[i] = one(list[i]);
    return "[" + string.Join(",", parts) + "]";
  }

  static string Failure(Exception e) {
    var fault = e as SoapException;
    if (fault != null) return "{\"fault\":" + Q(fault.Code.Name) + ",\"message\":" + Q(fault.Message) + "}";
    var web = e as WebException;
    if (web != null && web.Response != null) return "{\"status\":" + (int)((HttpWebResponse)web.Response).StatusCode + "}";
    return "{\"error\":" + Q(e.GetType().Name + ": " + e.Message) + "}";
  }

  // One port's operations, whatever its proxy's types.
  class Port {
    public Func<string, string, string> List;
    public Func<string, string, string, string, string> Range;
    public Action<string, string, int> Delete;
  }

  static Port For(string port, string url) {
    switch (port) {
      case "ApiSoap": {
        var p = new PeerSOAP.Api { Url = url };
        Func<PeerSOAP.Messages, string> m = x => Message(x.DateArrived, x.UserId, x.Sender, x.MessageText, x.MessageUrl, x.Transcription, x.Id);
        return new Port { List = (e, pw) => List(p.GetMessages(e, pw), m), Range = (e, pw, s, t) => List(p.GetMessagesInDateRange(e, pw, DateTime.Parse(s), DateTime.Parse(t)), m), Delete = (e, pw, id) => p.DeleteMessage(e, pw, id) };
      }
      case "ApiSoap12": {
        var p = new PeerSOAP12.Api { Url = url };
        Func<PeerSOAP12.Messages, string> m = x => Message(x.DateArrived, x.UserId, x.Sender, x.MessageText, x.MessageUrl, x.Transcription, x.Id);
        return new Port { List = (e, pw) => List(p.GetMessages(e, pw), m), Range = (e, pw, s, t) => List(p.GetMessagesInDateRange(e, pw, DateTime.Parse(s), DateTime.Parse(t)), m), Delete = (e, pw, id) => p.DeleteMessage(e, pw, id) };
      }
      case "ApiHttpGet": {
        var p = new PeerHttpGet.Api { Url = url };
        Func<PeerHttpGet.Messages, string> m = x => Message(x.DateArrived, x.UserId, x.Sender, x.MessageText, x.MessageUrl, x.Transcription, x.Id);
        return new Port { List = (e, pw) => List(p.GetMessages(e, pw), m), Range = (e, pw, s, t) => List(p.GetMessagesInDateRange(e, pw, s, t), m), Delete = (e, pw, id) => p.DeleteMessage(e, pw, id.ToString()) };
      }
      case "ApiHttpPost": {
        var p = new PeerHttpPost.Api { Url = url };
        Func<PeerHttpPost.Messages, string> m = x => Message(x.DateArrived, x.UserId, x.Sender, x.MessageText, x.MessageUrl, x.Transcription, x.Id);
        return new Port { List = (e, pw) => List(p.GetMessages(e, pw), m), Range = (e, pw, s, t) => List(p.GetMessagesInDateRange(e, pw, s, t), m), Delete = (e, pw, id) => p.DeleteMessage(e, pw, id.ToString()) };
      }
    }
    throw new ArgumentException("unknown port " + port);
  }

  static string Run(Port p, string step) {
    const string email = "alice@example.com", password = "alice-pass";
    try {
      if (step == "list") return p.List(email, password);
      if (step == "wrong") return p.List(email, "wrong");
      if (step.StartsWith("range:")) {
        var parts = step.Split(new[] { ':' }, 3);
        return p.Range(email, password, parts[1].Replace('_', ':'), parts[2].Replace('_', ':'));
      }
      if (step.StartsWith("delete:")) {
        p.Delete(email, password, int.Parse(step.Substring(7)));
        return "{\"deleted\":null}";
      }
    } catch (Exception e) {
      return Failure(e);
    }
    throw new ArgumentException("unknown step " + step);
  }

  [DllImport("libc")]
  static extern void _exit(int status);

  static void Main(string[] args) {
    var port = For(args[1], args[0]);
    for (int i = 2; i < args.Length; i++) Console.WriteLine("{\"step\":" + Q(args[i]) + ",\"value\":" + Run(port, args[i]) + "}");
    // Mono 6.8's shutdown sometimes aborts (mono-threads.c:2005, an interrupt-token assertion) with
    // the HTTP threads still alive, after every step has run: leave without it once the lines are out.
    Console.Out.Flush();
    _exit(0);
  }
}
