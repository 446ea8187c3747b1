// libxml2 as SheetPort uses it: the SAX2 push parser.
//
// Debian builds libxml2 with ICU, and its encoding.h then includes the system's ICU headers,
// which clash with the ICU copy inside Foundation in any module that imports both. SheetPort
// never touches the ICU members of xmlCharEncodingHandler (it only holds pointers to it), so
// the headers are read without them.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
