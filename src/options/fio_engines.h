/* fio 3.33's I/O engines and which iogauge has (fio_engines.c). */
#ifndef IOGAUGE_FIO_ENGINES_H
#define IOGAUGE_FIO_ENGINES_H

#include <stddef.h>
#include <stdio.h>

/*
 * name is one of fio's engines iogauge does not have (or an external one):
 * -1 with one line in err naming it; 0 otherwise.
 */
int fio_engine_refused(const char *name, char *err, size_t n);
/* docs/fio.md's engine section: each of fio's engines, iogauge's or not. */
void fio_engines_markdown(FILE *f);

#endif
