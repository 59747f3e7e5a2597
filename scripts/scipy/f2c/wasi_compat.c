/* libf2c on WASI (pybox), besides sig_die.c:
 *
 * s_copy: f2c translates every subroutine as returning int, and its
 * translations declare the runtime's string assignment the same way
 * (`int s_copy(char *, char *, ftnlen, ftnlen)`), while libf2c defines it
 * void. wasm checks call types, so the mismatched call would be linked to a
 * trap: libf2c's s_copy.c is compiled as pybox_f2c_s_copy and this int
 * version calls it.
 *
 * tmpfile: wasi-libc has none. libf2c's OPEN calls it only for
 * STATUS='SCRATCH' files (scipy's Fortran opens none); it fails with
 * ENOTSUP, which OPEN reports as an I/O error. */
#include <errno.h>
#include <stdio.h>
#include "f2c.h"

void pybox_f2c_s_copy(char *a, char *b, ftnlen la, ftnlen lb);

int s_copy(char *a, char *b, ftnlen la, ftnlen lb)
{
	pybox_f2c_s_copy(a, b, la, lb);
	return 0;
}

FILE *tmpfile(void)
{
	errno = ENOTSUP;
	return NULL;
}
