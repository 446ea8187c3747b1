#!/usr/bin/env bash
# The server's storage stays behind its named queries: every SQL statement and every difference
# between SQLite and PostgreSQL lives in Sources/SheetPortServer/Store/, and the domain (Editing,
# Jobs, Auth, Seal) never calls the HTTP layer (Routes, HTTP and the router; Events is the event
# route's stream). In the Swift files of Sources/ outside Store/ this fails, naming file and line, on:
# - SQL text: a string literal, or a line of a multi-line one, that starts a statement
#   (`SELECT `, `INSERT INTO`, `UPDATE t SET`, `DELETE FROM`, `CREATE TABLE`, `PRAGMA `, `WITH x AS`,
#   `COMMIT`, ...) or a clause (`WHERE `, `ORDER BY`, `ON CONFLICT`, ...), or names a dialect's
#   function (`GREATEST(`, `pg_...(`). The house writes SQL keywords in capitals; HTTP methods
#   (`"DELETE"`) and prose are not statements.
# - a dialect test: `StoreKind`, a store's bare case (`kind == .postgres`, `case .sqlite:`,
#   `guard case .postgres = ...`), a pattern test on one with a payload (`if case .postgres(...) =`),
#   or a concrete connection type (`PostgresConnection`, `SQLiteConnection`). Building a
#   location (`.postgres(url:)`) is not a test; asking `isShared` (several instances share the
#   store) is the domain's question.
# - in Sources/SheetPortServer/{Editing,Jobs,Auth,Seal}: a use of a route or HTTP type.
# Comment lines (`//`, `///`, `*`) are skipped; Tests/ is not checked (tests tamper with a store
# through raw SQL on purpose). Prints what it checked; exits 1 on a finding.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
store="Sources/SheetPortServer/Store"
files=()
while IFS= read -r file; do files+=("$file"); done < <(find Sources -name '*.swift' -not -path "$store/*" | sort)

# The route and HTTP types: every type the files of Routes/ and HTTP/ declare, and `RequestRefusal`
# and `Router` (the router's, in SheetServer.swift).
http_types="$( { grep -hoE '^[[:space:]]*(package |public |private |fileprivate )?(final )?(enum|struct|class|protocol|typealias) [A-Z][A-Za-z0-9]*' \
    Sources/SheetPortServer/Routes/*.swift Sources/SheetPortServer/HTTP/*.swift | awk '{ print $NF }'; echo RequestRefusal; echo Router; } | sort -u | paste -sd'|')"
domain=()
for folder in Editing Jobs Auth Seal; do
    while IFS= read -r file; do domain+=("$file"); done < <(find "Sources/SheetPortServer/$folder" -name '*.swift' | sort)
done

status=0
awk -v store="$store" '
    function report(kind, text) {
        printf "%s:%d: %s outside %s/: %s\n", FILENAME, FNR, kind, store, text; found = 1
        count[kind]++; if (!((kind, FILENAME) in seen)) { seen[kind, FILENAME] = 1; files[kind]++ }
    }
    FNR == 1 { inside = 0 }
    {
        line = $0
        trimmed = line; sub(/^[[:space:]]+/, "", trimmed)
        quotes = gsub(/"""/, "&", line)
        comment = trimmed ~ /^(\/\/|\*|\/\*)/
        statement = "(SELECT[[:space:]]|INSERT[[:space:]]+(OR[[:space:]]+[A-Z]+[[:space:]]+)?INTO[[:space:]]|UPDATE[[:space:]]+[^[:space:]\"]+[[:space:]]+SET[[:space:]]|DELETE[[:space:]]+FROM[[:space:]]|(CREATE|DROP)[[:space:]]+(TEMP[[:space:]]+|UNIQUE[[:space:]]+)?(TABLE|INDEX|VIEW|TRIGGER|DATABASE|SCHEMA)[[:space:]]|ALTER[[:space:]]+TABLE[[:space:]]|PRAGMA[[:space:]]|WITH[[:space:]]+(RECURSIVE[[:space:]]+)?[a-z_]+[[:space:]]+AS[[:space:]]|(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|VACUUM|LISTEN|NOTIFY|TRUNCATE)([[:space:]]|\"|;|$))"
        clause = "(WHERE|FROM|LEFT JOIN|JOIN|ORDER BY|GROUP BY|VALUES|RETURNING|ON CONFLICT|LIMIT|SET)[[:space:]]"
        dialect = "(GREATEST\\(|LEAST\\(|pg_[a-z_]+\\(|sqlite_[a-z_]+\\()"
        if (!comment) {
            if (inside && quotes == 0 && trimmed ~ ("^" statement)) { report("SQL", trimmed); statements++ }
            else if (inside && quotes == 0 && trimmed ~ ("^" clause)) report("SQL", trimmed)
            else if (line ~ ("\"[[:space:]]*" statement)) { report("SQL", trimmed); statements++ }
            else if (line ~ ("\"[[:space:]]*" clause) || line ~ ("\"[^\"]*" dialect)) report("SQL", trimmed)
            if (line ~ /(^|[^A-Za-z0-9_])StoreKind([^A-Za-z0-9_]|$)/ || line ~ /\.(postgres|sqlite)([^A-Za-z0-9_(]|$)/ \
                || line ~ /case[[:space:]]+(let[[:space:]]+)?\.(postgres|sqlite)\(.*=/ || line ~ /(PostgresConnection|SQLiteConnection)/)
                report("dialect test", trimmed)
        }
        if (quotes % 2 == 1) inside = !inside
    }
    END {
        printf "check-layout: outside %s/: %d SQL statements (%d lines) in %d files, %d dialect tests in %d files\n", store,
            statements, count["SQL"], files["SQL"], count["dialect test"], files["dialect test"] > "/dev/stderr"
        exit found
    }
' "${files[@]}" || status=1

awk -v types="$http_types" '
    /^[[:space:]]*(\/\/|\*)/ { next }
    $0 ~ ("(^|[^A-Za-z0-9_.])(" types ")([^A-Za-z0-9_]|$)") {
        printf "%s:%d: the domain uses a route or HTTP type: %s\n", FILENAME, FNR, $0; found = 1
    }
    END { exit found }
' "${domain[@]}" || status=1

echo "check-layout: ${#files[@]} Swift files of Sources/ outside $store/ for SQL text and dialect tests;" \
     "${#domain[@]} of Editing, Jobs, Auth and Seal for uses of $(echo "$http_types" | tr '|' '\n' | wc -l) route and HTTP types" >&2
[ "$status" -eq 0 ] || echo "check-layout: move the SQL or the dialect test into a named query in $store/, and what the domain shares with a route into the domain" >&2
exit "$status"
