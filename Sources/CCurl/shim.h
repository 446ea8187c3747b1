#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper per argument kind.
typedef size_t (*sp_curl_data_callback)(char *, size_t, size_t, void *);
typedef int (*sp_curl_xferinfo_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

static inline CURLcode sp_curl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode sp_curl_setopt_offset(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode sp_curl_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode sp_curl_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode sp_curl_setopt_data_callback(CURL *curl, CURLoption option, sp_curl_data_callback value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode sp_curl_setopt_xferinfo_callback(CURL *curl, sp_curl_xferinfo_callback value) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, value);
}
static inline CURLcode sp_curl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
