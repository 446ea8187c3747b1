/*
 * libxlsxwriter_write: the write-benchmark peer for SheetPort's streaming writer.
 *
 * Usage: libxlsxwriter_write OUT.xlsx ROWS
 *
 * Writes one worksheet ("Sheet1") with libxlsxwriter in constant_memory mode (rows are
 * flushed to a temporary file as they are finished; strings are written inline, not into the
 * shared-string table). Zip: libxlsxwriter's packager adds every part with
 * zipOpenNewFileInZip4_64(..., Z_DEFLATED, Z_DEFAULT_COMPRESSION, ...), i.e. zlib level -1 =
 * level 6 (see Benchmarks/write/README.md).
 *
 * Sheet row 1: the header "c1".."c10" (strings). Then ROWS data rows; a data row's number r is
 * its sheet row number (2 .. ROWS+1), so the formula in H refers to its own row:
 *
 *   A  r                                   number (integer)
 *   B  r * 1.25                            number
 *   C  alpha|beta|gamma|delta [r % 4]      string
 *   D  "item-<r>"                          string (unique per row)
 *   E  45000 + r % 1000, "yyyy-mm-dd"      date
 *   F  r % 2 == 0                          boolean
 *   G  r / 7.0                             number
 *   H  =A<r>*2, cached value 2r            formula
 *   I  north|south|east|west [r % 4]       string
 *   J  r % 100                             number (integer)
 *
 * Build: gcc -O2 libxlsxwriter_write.c $(pkg-config --cflags --libs xlsxwriter)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <xlsxwriter.h>

static const char *const WORDS_C[4] = {"alpha", "beta", "gamma", "delta"};
static const char *const WORDS_I[4] = {"north", "south", "east", "west"};

#define CHECK(call)                                                                    \
    do {                                                                               \
        lxw_error err_ = (call);                                                       \
        if (err_ != LXW_NO_ERROR) {                                                    \
            fprintf(stderr, "libxlsxwriter_write: %s: %s\n", #call, lxw_strerror(err_)); \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s OUT.xlsx ROWS\n", argv[0]);
        return 2;
    }
    char *end = NULL;
    errno = 0;
    long rows = strtol(argv[2], &end, 10);
    if (errno || *end || rows < 0 || rows > 1048575) {
        fprintf(stderr, "libxlsxwriter_write: ROWS must be 0..1048575, got %s\n", argv[2]);
        return 2;
    }

    lxw_workbook_options options = {.constant_memory = LXW_TRUE, .tmpdir = NULL};
    lxw_workbook *workbook = workbook_new_opt(argv[1], &options);
    if (!workbook) {
        fprintf(stderr, "libxlsxwriter_write: cannot create %s\n", argv[1]);
        return 2;
    }
    lxw_worksheet *sheet = workbook_add_worksheet(workbook, NULL);
    lxw_format *date = workbook_add_format(workbook);
    format_set_num_format(date, "yyyy-mm-dd");

    char text[32], formula[32];
    for (int c = 0; c < 10; c++) {
        snprintf(text, sizeof text, "c%d", c + 1);
        CHECK(worksheet_write_string(sheet, 0, (lxw_col_t) c, text, NULL));
    }
    for (long r = 2; r <= rows + 1; r++) {
        lxw_row_t row = (lxw_row_t) (r - 1);  /* libxlsxwriter rows are 0-based */
        CHECK(worksheet_write_number(sheet, row, 0, (double) r, NULL));
        CHECK(worksheet_write_number(sheet, row, 1, (double) r * 1.25, NULL));
        CHECK(worksheet_write_string(sheet, row, 2, WORDS_C[r % 4], NULL));
        snprintf(text, sizeof text, "item-%ld", r);
        CHECK(worksheet_write_string(sheet, row, 3, text, NULL));
        CHECK(worksheet_write_number(sheet, row, 4, (double) (45000 + r % 1000), date));
        CHECK(worksheet_write_boolean(sheet, row, 5, r % 2 == 0, NULL));
        CHECK(worksheet_write_number(sheet, row, 6, (double) r / 7.0, NULL));
        snprintf(formula, sizeof formula, "=A%ld*2", r);
        CHECK(worksheet_write_formula_num(sheet, row, 7, formula, NULL, (double) (2 * r)));
        CHECK(worksheet_write_string(sheet, row, 8, WORDS_I[r % 4], NULL));
        CHECK(worksheet_write_number(sheet, row, 9, (double) (r % 100), NULL));
    }
    CHECK(workbook_close(workbook));
    return 0;
}
