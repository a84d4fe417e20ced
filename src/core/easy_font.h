/* stb_easy_font (Debian's libstb-dev), the overlay's and the contact sheet's glyphs, included
 * with its own warnings silenced: it is third-party code built with md5cine's strict flags. It
 * keeps one global (its letter spacing) that md5cine never changes. Private to the library. */
#ifndef MC_CORE_EASY_FONT_H
#define MC_CORE_EASY_FONT_H

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wfloat-conversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wcast-align"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

#endif
