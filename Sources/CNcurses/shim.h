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
static inline int sp_key_resize(void) { return KEY_RESIZE; }

// ncurses' globals, read through functions (Swift 6 refuses shared mutable globals).
static inline WINDOW *sp_stdscr(void) { return stdscr; }
static inline int sp_lines(void) { return LINES; }
static inline int sp_cols(void) { return COLS; }
static inline int sp_colors(void) { return COLORS; }
static inline int sp_color_pairs(void) { return COLOR_PAIRS; }
// The terminal columns a character takes (2 for wide ones, -1 for non-printing).
static inline int sp_wcwidth(unsigned int character) { return wcwidth((wchar_t)character); }
