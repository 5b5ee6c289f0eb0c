/*
 * What the store commands share (store_cli.c): the store of --db (or
 * $IOGAUGE_DB, or the default), and a saved result named by a file or by a
 * store reference (compare, report, show).
 */
#ifndef IOGAUGE_CMDS_STORE_CLI_H
#define IOGAUGE_CMDS_STORE_CLI_H

#include <jansson.h>
#include <stddef.h>
#include "base/common.h"
#include "model/job.h"
#include "store/store.h"

/* Open the store: NULL with e set. */
struct store *cli_store_open(const struct settings *s, struct ig_err *e);
/*
 * word as a saved result: a file when one is at that path, else a store
 * reference (ID, LABEL, LABEL~N, @last, @last~N), opening *st when it is
 * still NULL (close it after).  name: how the result is called in tables
 * ("old.json", "#12 nightly").  The root (json_decref it), or NULL with e set.
 */
json_t *cli_result_load(const char *word, const struct settings *s, struct store **st, char *name, size_t len,
			struct ig_err *e);

#endif
