/*
 * jget: a tiny JSON query tool for the end-to-end tests, built by lib.sh
 * (need_json) against libjansson, which iogauge itself needs, so the tests
 * do not depend on jq or python being installed.
 *
 *   jget FILE               exit 0 when FILE holds exactly one JSON value
 *                           (nothing else before or after), 1 otherwise
 *   jget FILE EXPR...       one line per EXPR; exit 3 if a path is missing
 *
 * EXPR is a path, optionally followed by "|length" or "|keys":
 *   .jobs[0].read.bytes     object members and array indexes
 *   .devices[name=loop3]    the first array element whose member "name"
 *                           is the string (or number) "loop3"
 *   .a.b|length             elements of an array / members of an object
 *   .a.b|keys               member names, one per line, in document order
 * Strings print raw, integers as integers, reals with %.17g, true/false/null
 * as such, objects and arrays as compact JSON.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *step(json_t *v, const char **pp)
{
	const char *p = *pp;
	if (*p == '.') {
		p++;
		size_t n = strcspn(p, ".[|");
		char key[256];
		if (n == 0 || n >= sizeof key)
			return NULL;
		memcpy(key, p, n);
		key[n] = 0;
		*pp = p + n;
		return json_is_object(v) ? json_object_get(v, key) : NULL;
	}
	if (*p == '[') {
		const char *end = strchr(p, ']');
		if (!end || !json_is_array(v))
			return NULL;
		char sel[256];
		size_t n = (size_t)(end - p - 1);
		if (n == 0 || n >= sizeof sel)
			return NULL;
		memcpy(sel, p + 1, n);
		sel[n] = 0;
		*pp = end + 1;
		char *eq = strchr(sel, '=');
		if (!eq) {
			char *e;
			long i = strtol(sel, &e, 10);
			if (*e || i < 0)
				return NULL;
			return json_array_get(v, (size_t)i);
		}
		*eq = 0;
		size_t i;
		json_t *el;
		json_array_foreach(v, i, el) {
			json_t *m = json_object_get(el, sel);
			char buf[64];
			const char *s = NULL;
			if (json_is_string(m)) {
				s = json_string_value(m);
			} else if (json_is_integer(m)) {
				snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(m));
				s = buf;
			}
			if (s && strcmp(s, eq + 1) == 0)
				return el;
		}
		return NULL;
	}
	return NULL;
}

static void print(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		printf("%s\n", json_string_value(v));
		break;
	case JSON_INTEGER:
		printf("%lld\n", (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		printf("%.17g\n", json_real_value(v));
		break;
	case JSON_TRUE:
		puts("true");
		break;
	case JSON_FALSE:
		puts("false");
		break;
	case JSON_NULL:
		puts("null");
		break;
	default: {
		char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		printf("%s\n", s ? s : "");
		free(s);
	}
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: jget FILE [EXPR...]\n");
		return 2;
	}
	json_error_t err;
	json_t *root = json_load_file(argv[1], JSON_DECODE_ANY, &err);
	if (!root) {
		fprintf(stderr, "jget: %s: line %d column %d: %s\n", argv[1], err.line,
			err.column, err.text);
		return 1;
	}
	int rc = 0;
	for (int a = 2; a < argc; a++) {
		const char *p = argv[a];
		json_t *v = root;
		while (v && *p && *p != '|')
			v = step(v, &p);
		if (!v) {
			rc = 3;
			continue;
		}
		if (strcmp(p, "|length") == 0) {
			printf("%zu\n", json_is_array(v) ? json_array_size(v)
				       : json_is_object(v) ? json_object_size(v) : 0);
		} else if (strcmp(p, "|keys") == 0) {
			const char *k;
			json_t *m;
			if (!json_is_object(v)) {
				rc = 3;
				continue;
			}
			json_object_foreach(v, k, m)
				printf("%s\n", k);
		} else if (*p) {
			fprintf(stderr, "jget: bad expression %s\n", argv[a]);
			rc = 2;
		} else {
			print(v);
		}
	}
	json_decref(root);
	return rc;
}
