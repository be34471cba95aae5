/*
 * page_html.h - the one door from data to the HTML page: every string that
 * came from a results directory (variant, host, kernel, server settings, the
 * reproduce command) reaches the page through page_esc(), as text.
 */
#ifndef DBSCALE_PAGE_HTML_H
#define DBSCALE_PAGE_HTML_H

#include "core/util.h"

/* Append s escaped for HTML text and quoted attribute values: & < > " ' as
 * entities, other control characters as spaces. */
void page_esc(struct sbuf *b, const char *s);
/* printf into a scratch buffer, then page_esc() it. */
void page_escf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
