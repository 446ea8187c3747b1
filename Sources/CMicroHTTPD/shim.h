#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <microhttpd.h>

/// Names the calling thread (15 bytes kept) as /proc/PID/task/TID/comm shows it. prctl is
/// variadic and pthread_setname_np a GNU extension, neither callable from Swift as they are.
static inline void sp_name_this_thread(const char *name) {
    prctl(PR_SET_NAME, (unsigned long) name, 0UL, 0UL, 0UL);
}

// The URL and its arguments stay percent-encoded: the server decodes them itself, so that a `%00`
// becomes a NUL it refuses rather than the end of a C string that cuts the text.
static inline size_t sp_mhd_keep_escaped(void *context, struct MHD_Connection *connection, char *text) {
    (void)context; (void)connection;
    return strlen(text);
}

/// Where libmicrohttpd's own messages go: one line of text for the daemon's server's escaping
/// log, `context` the daemon's.
typedef void (*sp_mhd_log_sink)(void *context, const char *line);

/// A daemon's logger: its sink and the context the sink is called with.
struct sp_mhd_logger {
    sp_mhd_log_sink sink;
    void *context;
};

/// libmicrohttpd's logger (a printf format and its arguments) formatted into one line for the
/// `sp_mhd_logger` passed as its context, so its messages never write to standard error
/// themselves (a blocking write there would hold a polling thread).
static inline void sp_mhd_log(void *logger, const char *format, va_list arguments) {
    char line[1024];
    vsnprintf(line, sizeof line, format, arguments);
    struct sp_mhd_logger *target = (struct sp_mhd_logger *) logger;
    target->sink(target->context, line);
}

// MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call: fixed-argument
// wrappers for the options the server uses.

/// Starts a daemon without a listening socket (connections come through MHD_add_connection)
/// with its own polling threads (`threads` of them, a pool), at most `connections`
/// connections, connections idle for `timeout` seconds closed, `completed` called when a
/// request ends (to free its state) and `notify` when a connection starts and closes.
static inline struct MHD_Daemon *sp_mhd_start(unsigned int flags,
                                              unsigned int threads, unsigned int connections,
                                              unsigned int timeout, size_t memoryLimit,
                                              MHD_AccessHandlerCallback handler, void *context,
                                              MHD_RequestCompletedCallback completed,
                                              MHD_NotifyConnectionCallback notify,
                                              struct sp_mhd_logger *logger) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_EXTERNAL_LOGGER, sp_mhd_log, (void *) logger,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_LIMIT, connections,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memoryLimit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_UNESCAPE_CALLBACK, sp_mhd_keep_escaped, NULL,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, context,
                            MHD_OPTION_END);
}

/// What the connection callback stored for the connection (NULL if nothing).
static inline void *sp_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/// The client's IPv4 address (network byte order; 0 if unknown).
static inline uint32_t sp_mhd_client_ipv4(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || info->client_addr->sa_family != AF_INET) return 0;
    return ((const struct sockaddr_in *) info->client_addr)->sin_addr.s_addr;
}

/// Closes the connection after `seconds` without traffic (instead of the daemon's timeout).
static inline void sp_mhd_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/// The connection's socket (-1 if unknown).
static inline int sp_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

// Closed C enums import with stripped names; fixed constants under the server's names.
static const enum MHD_Result sp_mhd_yes = MHD_YES;
static const enum MHD_Result sp_mhd_no = MHD_NO;
static const enum MHD_ValueKind sp_mhd_header_kind = MHD_HEADER_KIND;
static const enum MHD_ValueKind sp_mhd_argument_kind = MHD_GET_ARGUMENT_KIND;
static const enum MHD_ResponseMemoryMode sp_mhd_must_copy = MHD_RESPMEM_MUST_COPY;
static const enum MHD_ConnectionNotificationCode sp_mhd_connection_closed = MHD_CONNECTION_NOTIFY_CLOSED;
static const unsigned int sp_mhd_daemon_flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG
                                                    | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_NO_LISTEN_SOCKET;
