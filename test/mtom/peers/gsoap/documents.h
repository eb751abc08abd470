// The documents fixture service (fixtures/documents) for gSOAP, its binaries as MTOM attachments
// (xop:Include): soapcpp2 makes the client and server stubs of test/mtom/gsoap.test.ts from it.
//gsoap ns service name: documents
//gsoap ns service style: document
//gsoap ns service encoding: literal
//gsoap ns service namespace: urn:wsdl-tsgen:documents
//gsoap ns schema namespace: urn:wsdl-tsgen:documents
//gsoap ns schema elementForm: qualified
#import "xop.h"

struct ns__Binary { _xop__Include xop__Include; };

struct ns__DocumentInfo {
  char *Id 1;
  char *Name 1;
  char *MediaType 1;
  LONG64 Size 1;
  char *Created 1;
};

struct ns__Document {
  struct ns__DocumentInfo Info 1;
  struct ns__Binary Content 1;
  struct ns__Binary *Thumbnail 0;
};

struct ns__UploadResponse { struct ns__DocumentInfo UploadResult 1; };
struct ns__DownloadResponse { struct ns__Document DownloadResult 1; };

//gsoap ns service method-action: Upload "urn:wsdl-tsgen:documents/Upload"
int ns__Upload(char *Name, char *MediaType, struct ns__Binary Content, struct ns__UploadResponse *out);
//gsoap ns service method-action: Download "urn:wsdl-tsgen:documents/Download"
int ns__Download(char *Id, struct ns__DownloadResponse *out);
