/*
 * blkuniq: distinct 4 KiB blocks in the files named (read in order, as one
 * stream), for the data-pattern tests; built by the test that uses it.
 * Prints "DISTINCT TOTAL".  A short last block counts as a block.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLK 4096

static int cmp(const void *a, const void *b)
{
	return memcmp(a, b, BLK);
}

int main(int argc, char **argv)
{
	size_t cap = 1024, n = 0;
	unsigned char *all = malloc(cap * BLK), buf[BLK];
	size_t fill = 0;
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 2;
		}
		size_t got;
		while ((got = fread(buf + fill, 1, BLK - fill, f)) > 0) {
			fill += got;
			if (fill < BLK)
				continue;
			if (n == cap)
				all = realloc(all, (cap *= 2) * BLK);
			memcpy(all + n++ * BLK, buf, BLK);
			fill = 0;
		}
		fclose(f);
	}
	if (fill) {
		memset(buf + fill, 0, BLK - fill);
		if (n == cap)
			all = realloc(all, (cap += 1) * BLK);
		memcpy(all + n++ * BLK, buf, BLK);
	}
	qsort(all, n, BLK, cmp);
	size_t d = n ? 1 : 0;
	for (size_t i = 1; i < n; i++)
		d += memcmp(all + (i - 1) * BLK, all + i * BLK, BLK) != 0;
	printf("%zu %zu\n", d, n);
	free(all);
	return 0;
}
