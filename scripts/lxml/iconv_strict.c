/* iconv_strict.c — the iconv libxml2 uses in pybox's python.wasm.
 *
 * libxml2 converts documents in legacy encodings (windows-1252, Shift_JIS,
 * ISO-8859-2, ...) with iconv; wasi-libc's is musl's. When libxml2 writes a
 * character the target encoding cannot represent, it expects iconv to fail
 * with EILSEQ, and then writes a character reference (&#233;) instead. musl
 * instead writes '*' and counts an "irreversible conversion" in its return
 * value: serializing to such an encoding would silently lose characters.
 *
 * build-lxml.sh compiles libxml2's encoding.c with
 *   -Diconv_open=pybox_iconv_open -Diconv=pybox_iconv -Diconv_close=pybox_iconv_close
 * so its calls land here. Conversions from UTF-8 (libxml2's output
 * direction) go one character at a time and report EILSEQ at a character
 * musl would have replaced; other conversions are passed through unchanged.
 */
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct pybox_iconv {
    iconv_t cd;
    int from_utf8;
};

iconv_t pybox_iconv_open(const char *tocode, const char *fromcode)
{
    iconv_t cd = iconv_open(tocode, fromcode);
    if (cd == (iconv_t)-1)
        return cd;
    struct pybox_iconv *w = malloc(sizeof *w);
    if (w == NULL) {
        iconv_close(cd);
        errno = ENOMEM;
        return (iconv_t)-1;
    }
    w->cd = cd;
    w->from_utf8 = strcasecmp(fromcode, "UTF-8") == 0 || strcasecmp(fromcode, "UTF8") == 0;
    return (iconv_t)w;
}

int pybox_iconv_close(iconv_t h)
{
    struct pybox_iconv *w = (struct pybox_iconv *)h;
    int r = iconv_close(w->cd);
    free(w);
    return r;
}

static size_t utf8_len(unsigned char c)
{
    if (c < 0x80) return 1;
    if (c < 0xe0) return 2;
    if (c < 0xf0) return 3;
    return 4;
}

size_t pybox_iconv(iconv_t h, char **in, size_t *inleft, char **out, size_t *outleft)
{
    struct pybox_iconv *w = (struct pybox_iconv *)h;
    if (!w->from_utf8 || in == NULL || *in == NULL)
        return iconv(w->cd, in, inleft, out, outleft);
    while (*inleft > 0) {
        size_t len = utf8_len((unsigned char)**in);
        if (len > *inleft) {  /* a character split across two calls */
            errno = EINVAL;
            return (size_t)-1;
        }
        char *ip = *in, *op = *out;
        size_t il = len, ol = *outleft;
        size_t r = iconv(w->cd, &ip, &il, &op, &ol);
        if (r == (size_t)-1)
            return r;  /* E2BIG, EILSEQ, EINVAL: *in still at this character */
        if (r > 0) {  /* musl substituted '*': not representable */
            errno = EILSEQ;
            return (size_t)-1;
        }
        *in = ip;
        *inleft -= len;
        *out = op;
        *outleft = ol;
    }
    return 0;
}
