/*
 * page_html.c - escaping for the HTML page. The page is built by appending
 * markup the code writes itself and text that came from files anybody may
 * have made (a variant label, a hostname, a server setting); the one idea is
 * that the second kind only ever goes through page_esc(), so no results
 * directory can put markup, a script or a broken attribute on the page.
 *
 * Never decide layout here; never let a byte through unescaped that could
 * end a text node or an attribute value.
 */
#include "page/page_html.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void page_esc(struct sbuf *b, const char *s)
{
    if (!s)
        return;
    const char *run = s;
    for (; *s; s++) {
        const char *rep;
        switch (*s) {
        case '&':
            rep = "&amp;";
            break;
        case '<':
            rep = "&lt;";
            break;
        case '>':
            rep = "&gt;";
            break;
        case '"':
            rep = "&quot;";
            break;
        case '\'':
            rep = "&#39;";
            break;
        default:
            /* Control characters (but tab and newline) mean nothing on a page;
             * a space keeps the text readable and valid. */
            rep = (unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' ? " " : NULL;
        }
        if (!rep)
            continue;
        sbuf_add(b, run, (size_t)(s - run));
        sbuf_add(b, rep, strlen(rep));
        run = s + 1;
    }
    sbuf_add(b, run, (size_t)(s - run));
}

void page_escf(struct sbuf *b, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    page_esc(b, buf);
}
