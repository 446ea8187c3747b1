#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift does not import.
static inline int sp_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}
// Text bound by its byte count (never scanned for a NUL), as UTF-8.
static inline int sp_sqlite3_bind_text64_transient(sqlite3_stmt *statement, int index, const char *text, sqlite3_uint64 length) {
    return sqlite3_bind_text64(statement, index, text, length, SQLITE_TRANSIENT, SQLITE_UTF8);
}
