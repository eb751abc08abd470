/*
 * gSOAP as an MTOM server of the documents service, on loopback port 0 (printed first, as
 * `port N`): Upload checks the attachment against pattern(size) and answers Id "same" or "changed"
 * with the size it read; Download of Id `size:N` answers N bytes of pattern(N) as an MTOM
 * attachment. Usage: server.
 */
#include "soapH.h"
#include "documents.nsmap"
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

static unsigned char pattern(int i) { return (unsigned char)((i * 7 + (i >> 8)) & 0xff); }

static void info(struct ns__DocumentInfo *out, char *id, char *name, LONG64 size) {
  out->Id = id;
  out->Name = name;
  out->MediaType = "application/octet-stream";
  out->Size = size;
  out->Created = "2026-01-01T00:00:00Z";
}

int ns__Upload(struct soap *soap, char *Name, char *MediaType, struct ns__Binary Content,
               struct ns__UploadResponse *out) {
  (void)MediaType;
  _xop__Include *x = &Content.xop__Include;
  int same = x->__ptr != NULL;
  for (int i = 0; same && i < x->__size; i++) same = x->__ptr[i] == pattern(i);
  info(&out->UploadResult, same ? "same" : "changed", Name, x->__size);
  return SOAP_OK;
}

int ns__Download(struct soap *soap, char *Id, struct ns__DownloadResponse *out) {
  int size = atoi(strchr(Id, ':') ? strchr(Id, ':') + 1 : "0");
  unsigned char *data = soap_malloc(soap, size > 0 ? size : 1);
  for (int i = 0; i < size; i++) data[i] = pattern(i);
  memset(out, 0, sizeof *out);
  info(&out->DownloadResult.Info, Id, "from-gsoap", size);
  out->DownloadResult.Content.xop__Include.__ptr = data;
  out->DownloadResult.Content.xop__Include.__size = size;
  out->DownloadResult.Content.xop__Include.type = "application/octet-stream";
  return SOAP_OK;
}

int main(void) {
  struct soap *soap = soap_new1(SOAP_ENC_MTOM);
  if (!soap_valid_socket(soap_bind(soap, "127.0.0.1", 0, 10))) {
    soap_print_fault(soap, stderr);
    return 1;
  }
  struct sockaddr_in addr;
  socklen_t len = sizeof addr;
  getsockname(soap->master, (struct sockaddr *)&addr, &len);
  printf("port %d\n", ntohs(addr.sin_port));
  fflush(stdout);
  for (;;) {
    if (!soap_valid_socket(soap_accept(soap))) break;
    soap_serve(soap);
    soap_destroy(soap);
    soap_end(soap);
  }
  soap_free(soap);
  return 0;
}
