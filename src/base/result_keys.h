/*
 * The saved result's contract: its schema version, the keys its writers
 * (report/json.c, suite_out.c, the suites) and its one reader
 * (report/result_read.h: result_read.c, result_own.c, json_read.c) share,
 * and the typed lookups the reader (and a suite's own load hook) uses.  docs/json.md describes each key.
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
#define RK_GROUPS "groups" /* each stonewall group merged */
#define RK_GROUP "group"   /* a job's and a group's number */
#define RK_DEVICES "devices"
#define RK_IOSTAT "iostat"
#define RK_OTHER_IO "other_io"
#define RK_NO_DEVICE "no_device"
#define RK_NOTES "notes"
#define RK_ELAPSED_NS "elapsed_ns"
#define RK_IMPORTED "imported" /* another tool's result read as iogauge's (report/result_fio.c) */
#define RK_SUITE "suite"
#define RK_DD "dd"
#define RK_COMPARE "compare"
#define RK_TREE "tree"
#define RK_SCALE "scale"
#define RK_STEADY "steady"
#define RK_FS "fs"
#define RK_COMMAND_LINE "command_line"
#define RK_KERNEL "kernel"
#define RK_MACHINE "machine"
#define RK_CPUS "cpus"
#define RK_FIO_VERSION "fio version" /* fio's JSON, refused by name */
#define RK_OPERANDS "operands"       /* dd's */
#define RK_RECORDS_IN "records_in"   /* dd's lines as dd prints them */
#define RK_RECORDS_OUT "records_out"
#define RK_SUMMARY "summary"

/* A job and its targets */
#define RK_NAME "name"
#define RK_OPTIONS "options"
#define RK_NUMJOBS "numjobs"
#define RK_TARGETS "targets"
#define RK_REGION "region" /* a job with fio's percentages: its offset, size, offset_increment, io_size in bytes */
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
#define RK_T_NS "t_ns"
#define RK_DUR_NS "dur_ns"
#define RK_LAT_MEAN_NS "lat_mean_ns"
#define RK_CRITERION "criterion"
#define RK_ATTAINED "attained"
#define RK_RANKS "ranks"
#define RK_RANK "rank"
#define RK_FSTYPE "fstype"
#define RK_DEVICE "device"
#define RK_SIZE "size"
#define RK_DATA "data"
#define RK_IO_MODE "io_mode"
#define RK_RESIDENT_BEFORE "resident_before_bytes"
#define RK_READ_BYTES "read_bytes"
#define RK_WRITE_BYTES "write_bytes"

/* A device's iostat -x columns ("iostat", each of its "series") */
#define RK_SPAN_NS "span_ns"
#define RK_R_S "r_s"
#define RK_W_S "w_s"
#define RK_RMB_S "rMB_s"
#define RK_WMB_S "wMB_s"
#define RK_R_AWAIT_MS "r_await_ms"
#define RK_W_AWAIT_MS "w_await_ms"
#define RK_AQU_SZ "aqu_sz"
#define RK_UTIL_PCT "util_pct"
#define RK_PID "pid" /* other_io's */

/* A direction's figures ("read", "write": io_op_names) */
#define RK_BYTES "bytes"
#define RK_IOS "ios"
#define RK_BW_BYTES "bw_bytes"
#define RK_IOPS "iops"
#define RK_CLAT_NS "clat_ns"
#define RK_MEAN "mean"
#define RK_PERCENTILES "percentiles"
#define RK_P99 "99.000000"
#define RK_P50 "50.000000"
#define RK_P999 "99.900000"
#define RK_STDDEV "stddev"

/* scale's and tree's steps */
#define RK_STEPS "steps"
#define RK_OUTSTANDING "outstanding"
#define RK_STREAMS "streams"
#define RK_MB_S "mb_s"
#define RK_READ_MB_S "read_mb_s"
#define RK_LAT_P99_NS "lat_p99_ns"

/* steady's rounds, window and table */
#define RK_ROUND "round"
#define RK_REACHED "reached"
#define RK_FIRST_ROUND "first_round"
#define RK_LAST_ROUND "last_round"
#define RK_IOPS_MEAN "iops_mean"
#define RK_SLOPE_IOPS "slope_iops_per_round"
#define RK_TABLE "table"
#define RK_ROUNDS_AVERAGED "rounds_averaged"
#define RK_TRACKED_CASE "tracked_case"
#define RK_RANGE_PCT_LIMIT "range_pct_limit"
#define RK_BLOCK_SIZES "block_sizes"
#define RK_READ_PCTS "read_pcts"

/* fs's columns and scaling */
#define RK_LABEL "label"
#define RK_DD_TO_DISK_MB_S "dd_to_disk_mb_s"
#define RK_WRITEBACK_S "writeback_s"
#define RK_UNMOUNT_S "unmount_s"
#define RK_MKFS_S "mkfs_s"
#define RK_SCALING "scaling"
#define RK_SINGLE "single"
#define RK_RATIO "ratio"

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
#define RK_FILE "file"
#define RK_SOURCE "source"
#define RK_MOUNT_OPTIONS "mount_options"
#define RK_ROTATIONAL "rotational"
#define RK_FS_SIZE "fs_size"
#define RK_SHRUNK "shrunk"
#define RK_REFUSED "refused"
#define RK_LAYOUT_NS "layout_ns"
#define RK_PREPARE_NS "prepare_ns"
#define RK_PREPARE_BYTES "prepare_bytes"
/* latency's ioping statistics, a target each */
#define RK_LATENCY "latency"
#define RK_DESCRIPTION "description"
#define RK_WRITES "writes"
#define RK_COMPLETED "completed"
#define RK_TIME_NS "time_ns"
#define RK_REQUESTS "requests"
#define RK_WALL_NS "wall_ns"
#define RK_MIN_NS "min_ns"
#define RK_AVG_NS "avg_ns"
#define RK_MAX_NS "max_ns"
#define RK_MDEV_NS "mdev_ns"
#define RK_P50_NS "p50_ns"
#define RK_P90_NS "p90_ns"
#define RK_P99_NS "p99_ns"
#define RK_P99_9_NS "p99_9_ns"

/* tree's walk, build and runs (its steps: "steps", each run in "passes") */
#define RK_ROOT "root"
#define RK_DIRS "dirs"
#define RK_ITEMS "items"
#define RK_SYMLINKS "symlinks"
#define RK_FIFOS "fifos"
#define RK_SOCKETS "sockets"
#define RK_CHARDEVS "chardevs"
#define RK_BLOCKDEVS "blockdevs"
#define RK_OTHER_FS "other_fs"
#define RK_UNREADABLE "unreadable"
#define RK_VANISHED "vanished"
#define RK_WALK_NS "walk_ns"
#define RK_BUILT "built"
#define RK_SIZE_MIN "size_min"
#define RK_SIZE_MAX "size_max"
#define RK_FILES_PER_DIR "files_per_dir"
#define RK_FANOUT "fanout"
#define RK_SEED "seed"
#define RK_BUILD_NS "build_ns"
#define RK_KEPT "kept"
#define RK_CHANGED "changed"
#define RK_HASH_BYTES "hash_bytes"
#define RK_HASH_NS "hash_ns"
#define RK_COMPRESS_IN "compress_in"
#define RK_COMPRESS_OUT "compress_out"
#define RK_COMPRESS_NS "compress_ns"
#define RK_COMPRESS_FAILED "compress_failed"
#define RK_RESIDENT "resident_before"  /* a run's page cache before it, -1 unknown */
#define RK_INVALIDATE_NS "invalidate_ns"

/* compare's table */
#define RK_FILES "files"
#define RK_COLUMNS "columns"
#define RK_ROWS "rows"
#define RK_TEST "test"
#define RK_UNIT "unit"
#define RK_VALUES "values"
#define RK_CHANGE_PCT "change_pct"
#define RK_SIGNIFICANT "significant"
#define RK_MEDIAN "median" /* a figure over the passes: median, min, max, passes */
#define RK_MIN "min"
#define RK_MAX "max"

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
