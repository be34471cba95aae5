/*
 * dbdebug.h - --db-debug: an engine's op table that forwards every call and
 * writes one line per finished statement (its SQL, parameters and outcome)
 * to a stream the verb gives.
 */
#ifndef DBSCALE_DBDEBUG_H
#define DBSCALE_DBDEBUG_H

#include <stdio.h>

#include "engines/db.h"

/* The tracing table over inner, writing to sink. One per process (the last
 * call wins); the table keeps inner's name and capabilities. */
const struct db_ops *dbdebug_ops(const struct db_ops *inner, FILE *sink);

#endif
