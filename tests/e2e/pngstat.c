/*
 * pngstat: what a screenshot holds, for the end-to-end tests (built by
 * test_html.sh against libpng).
 *
 *   pngstat FILE.png   prints "WIDTH HEIGHT INKED COLORS": INKED is the
 *                      fraction of pixels that differ from the most common
 *                      colour (the background), COLORS the number of
 *                      distinct colours (counted up to 4096)
 *
 * Exit status 1 when the file is not a PNG it can read.
 */
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 4096
#define SLOTS 16384 /* open addressing, at most a quarter full */

int main(int argc, char **argv)
{
	png_image img;
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	if (argc != 2 || !png_image_begin_read_from_file(&img, argv[1])) {
		fprintf(stderr, "pngstat: cannot read %s\n", argc > 1 ? argv[1] : "(no file)");
		return 1;
	}
	img.format = PNG_FORMAT_RGB;
	size_t n = (size_t)img.width * img.height;
	uint8_t *px = malloc(n * 3);
	if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
		fprintf(stderr, "pngstat: cannot decode %s\n", argv[1]);
		return 1;
	}
	static uint32_t key[SLOTS]; /* colour + 1; 0: empty */
	static size_t counts[SLOTS];
	unsigned nc = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t c = ((uint32_t)px[3 * i] << 16 | (uint32_t)px[3 * i + 1] << 8 | px[3 * i + 2]) + 1;
		unsigned h = (c * 2654435761u) % SLOTS;
		while (key[h] && key[h] != c)
			h = (h + 1) % SLOTS;
		if (!key[h]) {
			if (nc == MAXC)
				continue; /* enough colours counted */
			key[h] = c;
			nc++;
		}
		counts[h]++;
	}
	size_t top = 0;
	for (unsigned k = 0; k < SLOTS; k++)
		top = counts[k] > top ? counts[k] : top;
	printf("%u %u %.6f %u\n", img.width, img.height, n ? (double)(n - top) / (double)n : 0, nc);
	free(px);
	return 0;
}
