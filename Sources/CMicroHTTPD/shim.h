#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

// MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call: fixed-argument
// wrappers for the options the server uses.

/// Starts a daemon on `address` with its own polling threads (`threads` of them, a pool),
/// at most `connections` connections, idle connections closed after `timeout` seconds, and
/// `completed` called when a request ends (to free its state).
static inline struct MHD_Daemon *sp_mhd_start(unsigned int flags, const struct sockaddr *address,
                                              unsigned int threads, unsigned int connections,
                                              unsigned int timeout, size_t memoryLimit,
                                              MHD_AccessHandlerCallback handler, void *context,
                                              MHD_RequestCompletedCallback completed) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_LIMIT, connections,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memoryLimit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_END);
}

/// The port the daemon is bound to (0 on error).
static inline uint16_t sp_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
