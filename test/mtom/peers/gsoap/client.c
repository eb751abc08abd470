/*
 * gSOAP as an MTOM client of our documents server (serving with mtom "always": the Download
 * request carries no attachment, so gSOAP sends it plain, and its Content type reads only an
 * xop:Include): uploads a document as an MTOM attachment
 * (SOAP_ENC_MTOM), downloads it again, reading the MTOM answer, and prints one JSON line.
 * Usage: client <endpoint> <size>.
 */
#include "soapH.h"
#include "documents.nsmap"
#include <stdlib.h>
#include <string.h>

static unsigned char pattern(int i) { return (unsigned char)((i * 7 + (i >> 8)) & 0xff); }

int main(int argc, char **argv) {
  struct soap *soap = soap_new1(SOAP_ENC_MTOM);
  int size = atoi(argv[2]);
  unsigned char *data = soap_malloc(soap, size);
  for (int i = 0; i < size; i++) data[i] = pattern(i);
  struct ns__Binary content;
  memset(&content, 0, sizeof content);
  content.xop__Include.__ptr = data;
  content.xop__Include.__size = size;
  content.xop__Include.type = "application/octet-stream";
  struct ns__UploadResponse up;
  if (soap_call_ns__Upload(soap, argv[1], "urn:wsdl-tsgen:documents/Upload", "from-gsoap", "x/y", content, &up)) {
    printf("{\"error\":\"upload\",\"fault\":\"%s\"}\n", soap_fault_string(soap) ? soap_fault_string(soap) : "");
    return 1;
  }
  struct ns__DownloadResponse down;
  if (soap_call_ns__Download(soap, argv[1], "urn:wsdl-tsgen:documents/Download", up.UploadResult.Id, &down)) {
    printf("{\"error\":\"download\",\"fault\":\"%s\"}\n", soap_fault_string(soap) ? soap_fault_string(soap) : "");
    return 1;
  }
  _xop__Include *got = &down.DownloadResult.Content.xop__Include;
  int same = got->__size == size;
  for (int i = 0; same && i < size; i++) same = got->__ptr[i] == pattern(i);
  printf("{\"id\":\"%s\",\"uploaded\":%lld,\"downloaded\":%d,\"same\":%s,\"name\":\"%s\"}\n",
         up.UploadResult.Id, (long long)up.UploadResult.Size, got->__size, same ? "true" : "false",
         down.DownloadResult.Info.Name);
  soap_destroy(soap);
  soap_end(soap);
  soap_free(soap);
  return 0;
}
