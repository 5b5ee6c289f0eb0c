/*
 * Fuzz target: reading saved results back, as `compare` and `report` do
 * (src/report/saved.c, json_read.c, src/cmds/suite_read.c): the whole file, the
 * run it holds, a suite's cases and passes (printed by the suite's own
 * formatter, as `report` does), and every latency object in it; fio's JSON
 * read as a result (report/result_fio.c: what compare, report and import
 * make of an imported fio file) and a bonnie++ CSV line's table
 * (suites/bonnie.c: what show prints of an imported one).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/common.h"
#include "run/runner.h"
#include "suite/suite.h"
#include "cmds/suite_read.h"
#include "report/report.h"
#include "report/result_read.h"
#include "cmds/commands.h"
#include "suites/bonnie.h"

static void each_lat(const json_t *v, int depth)
{
	if (depth > 16)
		return;
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		if (json_object_get(v, "histogram")) {
			struct lat_stats l;
			struct ig_err e = { 0 };
			lat_init(&l);
			lat_from_json(v, &l, &e);
			lat_free(&l);
		}
		json_object_foreach((json_t *)v, k, x)
			each_lat(x, depth + 1);
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
			each_lat(x, depth + 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t je;
	json_t *root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &je);
	if (root) {
		struct run_result r;
		struct ig_err e = { 0 };
		memset(&r, 0, sizeof(r));
		run_result_from_json(root, &r, &e);
		run_result_free(&r);
		struct suite_saved ss;
		if (!suite_from_json(root, &ss, &e) && ss.suite.print) {
			FILE *null = fopen("/dev/null", "w");
			if (null) {
				ss.suite.print(null, &ss.sr);
				fclose(null);
			}
		}
		suite_saved_free(&ss);
		each_lat(root, 0);
		json_t *fio = result_from_fio(root, "fuzz", &cmd_run, &e);
		if (fio) {
			FILE *null = fopen("/dev/null", "w");
			struct saved_result sv;
			if (null) {
				report_import_text(null, fio);
				fclose(null);
			}
			if (!saved_from_root(fio, "fuzz", true, &sv, &e))
				saved_free(&sv);
			json_decref(fio);
		}
		json_decref(root);
	}
	if (size < 4096 && !memchr(data, 0, size)) {
		char line[4096];
		struct ig_err e = { 0 };
		memcpy(line, data, size);
		line[size] = 0;
		FILE *null = fopen("/dev/null", "w");
		if (null) {
			bonnie_csv_table(null, line, &e);
			fclose(null);
		}
	}
	int fd = memfd_create("result", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		char path[64];
		struct saved_result s;
		struct ig_err e = { 0 };
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (!saved_load(path, &s, &e))
			saved_free(&s);
	}
	close(fd);
	return 0;
}
