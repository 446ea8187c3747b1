#include <archive.h>
#include <archive_entry.h>

/// AE_IFREG, a cast macro Swift does not import.
static const unsigned int sp_archive_regular_file = AE_IFREG;
