/* The inflate floor: the worksheet entry's raw deflate stream (read whole through libzip,
 * untimed) inflated into a 256 KiB buffer again and again, with its CRC-32 computed as a
 * reader must, by zlib or by Intel's ISA-L (igzip). The inflater a reader could use, alone.
 *
 * Usage: inflate_floor zlib|isal FILE.xlsx [ENTRY]   (prints seconds, bytes and the CRC)
 */
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zip.h>
#include <zlib.h>

enum { CHUNK = 1 << 18 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int with_zlib(unsigned char *in, zip_uint64_t size, unsigned char *out, unsigned long *total, unsigned long *crc) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, -15) != Z_OK) return 1;
    stream.next_in = in;
    stream.avail_in = (uInt)size;
    *crc = crc32(0, Z_NULL, 0);
    for (;;) {
        stream.next_out = out;
        stream.avail_out = CHUNK;
        int result = inflate(&stream, Z_NO_FLUSH);
        unsigned produced = CHUNK - stream.avail_out;
        *total += produced;
        *crc = crc32(*crc, out, produced);
        if (result == Z_STREAM_END) break;
        if (result != Z_OK) return 1;
    }
    inflateEnd(&stream);
    return 0;
}

static int with_isal(unsigned char *in, zip_uint64_t size, unsigned char *out, unsigned long *total, unsigned long *crc) {
    struct inflate_state state;
    isal_inflate_init(&state);
    state.next_in = in;
    state.avail_in = (uint32_t)size;
    uint32_t sum = 0;
    for (;;) {
        state.next_out = out;
        state.avail_out = CHUNK;
        if (isal_inflate(&state) != ISAL_DECOMP_OK) return 1;
        unsigned produced = CHUNK - state.avail_out;
        *total += produced;
        sum = crc32_gzip_refl(sum, out, produced);
        if (state.block_state == ISAL_BLOCK_FINISH) break;
        if (produced == 0 && state.avail_in == 0) return 1;
    }
    *crc = sum;
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3 || (strcmp(argv[1], "zlib") != 0 && strcmp(argv[1], "isal") != 0)) {
        fprintf(stderr, "usage: %s zlib|isal FILE.xlsx [ENTRY]\n", argv[0]);
        return 2;
    }
    const char *entry = argc > 3 ? argv[3] : "xl/worksheets/sheet1.xml";
    int error = 0;
    zip_t *archive = zip_open(argv[2], ZIP_RDONLY, &error);
    zip_stat_t status;
    if (!archive || zip_stat(archive, entry, 0, &status) != 0) { fprintf(stderr, "%s: no %s\n", argv[2], entry); return 2; }
    zip_file_t *file = zip_fopen(archive, entry, ZIP_FL_COMPRESSED);
    unsigned char *in = malloc(status.comp_size ? status.comp_size : 1), *out = malloc(CHUNK);
    if (!file || !in || !out || zip_fread(file, in, status.comp_size) != (zip_int64_t)status.comp_size) return 2;
    zip_fclose(file);
    unsigned long total = 0, crc = 0;
    double start = now();
    int failed = strcmp(argv[1], "zlib") == 0 ? with_zlib(in, status.comp_size, out, &total, &crc)
                                              : with_isal(in, status.comp_size, out, &total, &crc);
    double seconds = now() - start;
    if (failed || crc != status.crc || total != status.size) { fprintf(stderr, "%s: %s failed\n", entry, argv[1]); return 1; }
    printf("%s: %.3f s, %lu bytes, crc %08lx\n", argv[1], seconds, total, crc);
    zip_close(archive);
    return 0;
}
