/* Reading saved results back: latency objects with their histogram buckets. */
#include "common.h"
#include "report/report.h"

#include <string.h>

static int get_u64(const json_t *o, const char *key, uint64_t *v, struct ig_err *e)
{
	const json_t *x = json_object_get(o, key);
	if (json_is_integer(x) && json_integer_value(x) >= 0)
		*v = (uint64_t)json_integer_value(x);
	else if (json_is_real(x) && json_real_value(x) >= 0)
		*v = (uint64_t)json_real_value(x);
	else
		return err_set(e, EXIT_USAGE, "a latency object has no valid \"%s\"", key);
	return 0;
}

int lat_from_json(const json_t *o, struct lat_stats *l, struct ig_err *e)
{
	uint64_t n, min, max, sum, total = 0, first = UINT64_MAX, last = 0;
	lat_free(l);
	lat_init(l);
	if (!json_is_object(o))
		return err_set(e, EXIT_USAGE, "a latency object is not a JSON object");
	if (get_u64(o, "samples", &n, e) || get_u64(o, "min", &min, e) ||
	    get_u64(o, "max", &max, e) || get_u64(o, "sum", &sum, e))
		return -1;
	const json_t *h = json_object_get(o, "histogram"), *b;
	if (!json_is_array(h))
		return err_set(e, EXIT_USAGE, "a latency object has no \"histogram\" array");
	l->h = xcalloc(1, sizeof(*l->h));
	size_t i;
	json_array_foreach(h, i, b) {
		const json_t *lo = json_array_get(b, 0), *cnt = json_array_get(b, 1);
		if (json_array_size(b) != 2 || !json_is_integer(lo) || !json_is_integer(cnt) ||
		    json_integer_value(lo) < 0 || json_integer_value(cnt) < 0)
			return err_set(e, EXIT_USAGE, "histogram bucket %zu is not [lower bound, count]", i);
		uint64_t v = (uint64_t)json_integer_value(lo);
		unsigned idx = hist_index(v);
		if (hist_bucket_low(idx) != v)
			return err_set(e, EXIT_USAGE,
				       "histogram bucket %zu: %llu is not a bucket boundary of iogauge's histogram",
				       i, (unsigned long long)v);
		l->h->counts[idx] += (uint64_t)json_integer_value(cnt);
		total += (uint64_t)json_integer_value(cnt);
		if (json_integer_value(cnt)) {
			first = idx < first ? idx : first;
			last = idx > last ? idx : last;
		}
	}
	if (total != n)
		return err_set(e, EXIT_USAGE, "histogram counts (%llu) differ from samples (%llu)",
			       (unsigned long long)total, (unsigned long long)n);
	if (n && (hist_index(min) != first || hist_index(max) != last || min > max))
		return err_set(e, EXIT_USAGE, "min %llu or max %llu lies outside the histogram's buckets",
			       (unsigned long long)min, (unsigned long long)max);
	l->n = n;
	l->min = n ? min : UINT64_MAX;
	l->max = max;
	l->sum = sum;
	const char *sq = json_string_value(json_object_get(o, "sumsq"));
	if (!sq || !*sq)
		return err_set(e, EXIT_USAGE, "a latency object has no \"sumsq\" string");
	unsigned __int128 v = 0;
	for (const char *p = sq; *p; p++) {
		if (*p < '0' || *p > '9')
			return err_set(e, EXIT_USAGE, "\"sumsq\" is not a decimal number: %.40s", sq);
		v = v * 10 + (unsigned)(*p - '0');
	}
	l->sumsq = v;
	return 0;
}
