/*
 * The saved result's contract: its schema version, the keys its writers
 * (report/json.c, suite_out.c, the suites) and its readers (report/json_read.c,
 * saved.c, suite_read.c, the HTML pages, compare) share, and the typed lookups
 * every reader uses.  docs/json.md describes each key.
 */
#ifndef IOGAUGE_RESULT_KEYS_H
#define IOGAUGE_RESULT_KEYS_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

/*
 * iogauge.schema: raised when a key changes meaning or is removed (adding
 * keys keeps it).  1: results written before the key existed (read as 1).
 * 2: "schema" written.  A reader refuses a result of a higher schema.
 */
#define RESULT_SCHEMA 2

/* The root */
#define RK_IOGAUGE "iogauge"
#define RK_VERSION "version"
#define RK_SCHEMA "schema"
#define RK_COMMAND "command"
#define RK_TIME "time"
#define RK_HOST "host"
#define RK_STATUS "status"
#define RK_INTERRUPTED "interrupted"
#define RK_ERROR "error"
#define RK_JOBS "jobs"
#define RK_DEVICES "devices"
#define RK_IOSTAT "iostat"
#define RK_OTHER_IO "other_io"
#define RK_NO_DEVICE "no_device"
#define RK_NOTES "notes"
#define RK_SUITE "suite"
#define RK_DD "dd"
#define RK_COMPARE "compare"
#define RK_TREE "tree"
#define RK_FS "fs"

/* A job and its targets */
#define RK_NAME "name"
#define RK_OPTIONS "options"
#define RK_NUMJOBS "numjobs"
#define RK_TARGETS "targets"
#define RK_TARGET "target"
#define RK_PATH "path"
#define RK_BLOCKDEV "blockdev"
#define RK_DIRECT "direct"
#define RK_CREATED "created"
#define RK_BUFFERED_FALLBACK "buffered_fallback"
#define RK_SERIES "series"
#define RK_POINTS "points"
#define RK_STEADYSTATE "steadystate"
#define RK_WINDOW "window"
#define RK_MEASURED "measured"

/* A suite's table */
#define RK_CASES "cases"
#define RK_CASE "case"
#define RK_PASS "pass"
#define RK_PASSES "passes"
#define RK_ROUNDS "rounds"
#define RK_SETTINGS "settings"
#define RK_READ_PCT "read_pct"
#define RK_LOOP_DIR "loop_dir"
#define RK_FILESYSTEMS "filesystems"
#define RK_FIRST_UNREADABLE "first_unreadable"

/* Typed lookups: a missing or mistyped key reads as "" or 0, as readers render a partial result. */
static inline const char *rk_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static inline double rk_num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static inline uint64_t rk_u64_of(const json_t *x)
{
	if (json_is_integer(x))
		return json_integer_value(x) > 0 ? (uint64_t)json_integer_value(x) : 0;
	if (json_is_real(x))
		return json_real_value(x) > 0 ? (uint64_t)json_real_value(x) : 0;
	return 0;
}

static inline uint64_t rk_u64(const json_t *o, const char *key)
{
	return rk_u64_of(json_object_get(o, key));
}

static inline void rk_strcpy(const json_t *o, const char *key, char *buf, size_t len)
{
	snprintf(buf, len, "%s", rk_str(o, key));
}

#endif
