/* The XML floor: libxml2's SAX2 push parser over an already inflated part, with callbacks
 * that do nothing, fed in 64 KiB chunks as SheetPort feeds it. Same options as SheetPort's
 * XMLPushParser (no DTD loading, no entities, no network).
 *
 * Usage: libxml2_parse FILE.xml   (prints the number of elements started)
 */
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long elements;

static void start(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri,
                  int nb_namespaces, const xmlChar **namespaces, int nb_attributes,
                  int nb_defaulted, const xmlChar **attributes) {
    (void)ctx; (void)local; (void)prefix; (void)uri; (void)nb_namespaces; (void)namespaces;
    (void)nb_attributes; (void)nb_defaulted; (void)attributes;
    elements++;
}
static void end(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri) {
    (void)ctx; (void)local; (void)prefix; (void)uri;
}
static void characters(void *ctx, const xmlChar *text, int len) { (void)ctx; (void)text; (void)len; }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s FILE.xml\n", argv[0]); return 2; }
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 2; }
    xmlSAXHandler sax = {0};
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = start;
    sax.endElementNs = end;
    sax.characters = characters;
    static char chunk[65536];
    size_t n = fread(chunk, 1, 4, file);
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&sax, NULL, chunk, (int)n, argv[1]);
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA);
    while ((n = fread(chunk, 1, sizeof chunk, file)) > 0) {
        if (xmlParseChunk(ctxt, chunk, (int)n, 0) != 0) break;
    }
    xmlParseChunk(ctxt, NULL, 0, 1);
    int ok = ctxt->wellFormed;
    xmlFreeParserCtxt(ctxt);
    fclose(file);
    if (!ok) { fprintf(stderr, "%s: not well-formed\n", argv[1]); return 1; }
    printf("%lu elements\n", elements);
    return 0;
}
