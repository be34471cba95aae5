/*
 * manpage.h - dbscale.1 and the option listing the tests check it with,
 * written from the verb and option tables at build time (`make` runs
 * `dbscale --man`), so the page cannot drift from the parsers.
 */
#ifndef DBSCALE_MANPAGE_H
#define DBSCALE_MANPAGE_H

#include <stdio.h>

/* The man page, in roff (man(7) macros). 0, or -1 on a write error. */
int manpage_write(FILE *f);
/* Every verb's options, one "VERB<TAB>--NAME<TAB>DEFAULT" line each. */
int manpage_dump_options(FILE *f);
/* The bash completion script (completion.c). */
int completion_write(FILE *f);

#endif
