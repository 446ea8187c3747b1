#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <wchar.h>
#include <ncurses.h>

// Macros Swift cannot call, as functions.
static inline int sp_color_pair(int pair) { return COLOR_PAIR(pair); }
static inline int sp_attr_bold(void) { return A_BOLD; }
static inline int sp_attr_reverse(void) { return A_REVERSE; }
static inline int sp_attr_underline(void) { return A_UNDERLINE; }
// Italic where this ncurses knows it (drawn only by terminals whose terminfo has `sitm`).
#ifdef A_ITALIC
static inline int sp_attr_italic(void) { return A_ITALIC; }
#else
static inline int sp_attr_italic(void) { return 0; }
#endif
static inline int sp_key_resize(void) { return KEY_RESIZE; }

// ncurses' globals, read through functions (Swift 6 refuses shared mutable globals).
static inline WINDOW *sp_stdscr(void) { return stdscr; }
static inline int sp_lines(void) { return LINES; }
static inline int sp_cols(void) { return COLS; }
static inline int sp_colors(void) { return COLORS; }
static inline int sp_color_pairs(void) { return COLOR_PAIRS; }
// The terminal columns a character takes (2 for wide ones, -1 for non-printing).
static inline int sp_wcwidth(unsigned int character) { return wcwidth((wchar_t)character); }

#include <term.h>
#include <poll.h>
#include <stdio.h>

// Draws with attributes `attrs` and the extended colour pair `pair` (past COLOR_PAIR's 256).
static inline int sp_attr_set(int attrs, int pair) { int extended = pair; return attr_set((attr_t)attrs, (short)0, &extended); }
// Whether the terminal in use describes direct (24-bit) colour: terminfo's `RGB` flag.
static inline int sp_terminal_has_rgb(void) { return tigetflag((char *)"RGB") == 1; }
// Whether the terminfo database has `name` and it describes direct colour (read before the
// screen starts: the description is set up and freed again).
static inline int sp_terminal_name_has_rgb(const char *name) {
    int error = 0;
    TERMINAL *previous = cur_term;
    if (setupterm((char *)name, 1, &error) != OK) { set_curterm(previous); return 0; }
    int rgb = tigetflag((char *)"RGB") == 1 || tigetnum((char *)"colors") >= (1 << 24);
    TERMINAL *probed = set_curterm(previous);
    if (probed != previous) del_curterm(probed);
    return rgb;
}
// Starts the screen for terminal `name` (NULL: $TERM) on standard output and input; 0 on failure.
static inline int sp_start_screen(const char *name) {
    SCREEN *screen = newterm((char *)name, stdout, stdin);
    if (screen == NULL) return 0;
    set_term(screen);
    return 1;
}
// Waits until standard input or `wake` can be read, or `milliseconds` pass; the poll result.
static inline int sp_wait_input(int wake, int milliseconds) {
    struct pollfd fds[2] = { { .fd = 0, .events = POLLIN }, { .fd = wake, .events = POLLIN } };
    return poll(fds, 2, milliseconds);
}
